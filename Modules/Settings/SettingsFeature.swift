/// The Settings feature: typed, validated, persisted settings that other features read at the
/// moment they need them.
///
/// ```swift
/// let settings = SettingsBloc(storage: storage)
/// // the host registers it under SettingsFeature.name
/// ```
public enum SettingsFeature {
  /// The stable name a host registers the feature under.
  public static let name = "settings"
  /// The storage key of the persisted settings.
  public static let storageKey = "settings"
  /// One line for a host's `describe`.
  public static let summary =
    "Typed settings with defaults and validation, read by the other features as they work."
}
