/// The AppSearch feature: search apps (Debian packages or the App Store, per Settings), throttled
/// and cancel-safe, and mark the ones you like; marks survive new searches and restarts.
///
/// ```swift
/// let search = AppSearchBloc(settings: settingsBloc, storage: storage, services: .live)
/// // the host registers it under AppSearchFeature.name
/// ```
public enum AppSearchFeature {
  /// The stable name a host registers the feature under.
  public static let name = "search"
  /// The storage key of the persisted marks (the only part of the state that persists).
  public static let marksStorageKey = "search-marks"
  /// One line for a host's `describe`.
  public static let summary =
    "Searches apps through the backend chosen in Settings; marks persist across searches and restarts."
}
