import Settings

extension SettingsState {
  /// The defaults with `events` applied; traps on a refusal (a broken test, not a finding).
  static func with(_ events: SettingsEvent...) -> SettingsState {
    do {
      return try SettingsState.defaults.applying(events)
    } catch {
      fatalError("test settings refused: \(error)")
    }
  }
}
