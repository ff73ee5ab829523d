import BlocCore

/// What can be done to the settings.
///
/// ```swift
/// await settings.send(.set(.searchLimit, 50))
/// await settings.send(.reset(.searchLimit))
/// await settings.send(.resetAll)
/// ```
/// JSON: `{"type":"set","key":"searchLimit","value":50}`, `{"type":"reset","key":"searchLimit"}`,
/// `{"type":"resetAll"}`.
public enum SettingsEvent: BlocEvent, Hashable {
  /// Sets one setting; refused (``SettingsError``) when the setting does not accept the value.
  case set(SettingKey, SettingValue)
  /// Puts one setting back to its default.
  case reset(SettingKey)
  /// Puts every setting back to its default.
  case resetAll

  /// Settings events share one handler and so one sequential lane: they run one at a time, in
  /// the order added, and never undo each other's change.
  public enum Kind: Hashable, Sendable { case change }
  public var kind: Kind { .change }
}
