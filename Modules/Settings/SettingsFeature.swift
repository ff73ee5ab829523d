import FeatureKit

/// The Settings feature: typed, validated, persisted settings. The host reads them to satisfy
/// the other features' own service protocols (the counter's rules, the search's configuration).
///
/// ```swift
/// registry.register(SettingsFeature.self, settings)
/// ```
public enum SettingsFeature: FeatureDescription {
  public typealias Event = SettingsEvent
  public typealias State = SettingsState
  /// The stable name a host registers the feature under.
  public static let name = "settings"
  /// The storage key of the persisted settings.
  public static let storageKey = "settings"
  public static let summary =
    "Typed settings with defaults and validation, read by the other features as they work."
}
