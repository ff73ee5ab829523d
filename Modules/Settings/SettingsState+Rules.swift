/// The rules of the settings, as pure functions: each returns a new state or throws a
/// ``SettingsError`` and changes nothing (each event's handling, ``applying(_:defaults:)``, is
/// beside the events in SettingsEvent.swift).
///
/// ```swift
/// let fast = try SettingsState.defaults.setting(.searchThrottleMs, to: 0)
/// try fast.setting(.searchLimit, to: 500)  // throws: searchLimit must be an integer from 1 to 200; got 500
/// ```
extension SettingsState {
  /// Applies several events in order; stops at the first refusal.
  public func applying(_ events: [SettingsEvent]) throws(SettingsError) -> SettingsState {
    var state = self
    for event in events { state = try state.applying(event) }
    return state
  }

  /// The state with one setting changed, if the setting accepts the value.
  public func setting(
    _ key: SettingKey, to value: SettingValue
  ) throws(SettingsError)
    -> SettingsState
  {
    let refused = SettingsError.invalidValue(key, value)
    var next = self
    switch (key, value) {
    case (.searchBackend, .string(let name)):
      guard let backend = SearchBackend(rawValue: name) else { throw refused }
      next.searchBackend = backend
    case (.searchCountry, .string(let code)):
      guard SettingKey.countryCode.accepts(code) else { throw refused }
      next.searchCountry = code.lowercased()
    case (.searchLimit, .integer(let limit)):
      guard (1...200).contains(limit) else { throw refused }
      next.searchLimit = limit
    case (.searchThrottleMs, .integer(let milliseconds)):
      guard (0...10_000).contains(milliseconds) else { throw refused }
      next.searchThrottleMs = milliseconds
    case (.counterStep, .integer(let step)):
      guard step >= 1 else { throw refused }
      next.counterStep = step
    case (.counterMinimum, .integer(let minimum)):
      if let maximum = counterMaximum, minimum > maximum {
        throw .boundsCrossed(.counterMinimum, value: minimum, other: maximum)
      }
      next.counterMinimum = minimum
    case (.counterMaximum, .integer(let maximum)):
      if let minimum = counterMinimum, maximum < minimum {
        throw .boundsCrossed(.counterMaximum, value: maximum, other: minimum)
      }
      next.counterMaximum = maximum
    case (.counterMinimum, .null): next.counterMinimum = nil
    case (.counterMaximum, .null): next.counterMaximum = nil
    default: throw refused
    }
    return next
  }

  /// The state with one setting back at its value in `defaults`. A bound that would cross the
  /// other bound is cleared instead (the built-in defaults have no bounds, so never there).
  public func resetting(_ key: SettingKey, to defaults: SettingsState = .defaults) -> SettingsState
  {
    if let reset = try? setting(key, to: defaults.value(of: key)) { return reset }
    return (try? setting(key, to: .null)) ?? self
  }
}
