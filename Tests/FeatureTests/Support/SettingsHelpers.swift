import AppSearch
import Counter
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

/// The counter's rules read from a settings bloc, as the daemon composes them.
struct RulesFromSettings: CounterRulesSource {
  let settings: SettingsBloc
  init(_ settings: SettingsBloc) { self.settings = settings }

  var rules: CounterRules {
    let now = settings.state
    return CounterRules(
      step: now.counterStep, minimum: now.counterMinimum, maximum: now.counterMaximum)
  }
}

/// The search's configuration read from a settings bloc, as the daemon composes it.
struct ConfigurationFromSettings: SearchConfigurationSource {
  let settings: SettingsBloc
  init(_ settings: SettingsBloc) { self.settings = settings }

  var configuration: SearchConfiguration {
    let now = settings.state
    return SearchConfiguration(
      source: now.searchBackend == .itunes ? .itunes : .packages, country: now.searchCountry,
      limit: now.searchLimit, throttle: .milliseconds(now.searchThrottleMs))
  }
}
