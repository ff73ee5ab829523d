import FeatureKit

/// The AppSearch feature: search apps (Debian packages or the App Store, as configured),
/// throttled and cancel-safe, and mark the ones you like; marks survive new searches and
/// restarts.
///
/// ```swift
/// registry.register(AppSearchFeature.self, AppSearchBloc(configuration: …, storage: storage))
/// ```
public enum AppSearchFeature: FeatureDescription {
  public typealias Event = AppSearchEvent
  public typealias State = AppSearchState
  /// The stable name a host registers the feature under.
  public static let name = "search"
  /// The storage key of the persisted marks (the only part of the state that persists).
  public static let marksStorageKey = "search-marks"
  public static let summary =
    "Searches apps through the backend chosen in Settings; marks persist across searches and restarts."
}
