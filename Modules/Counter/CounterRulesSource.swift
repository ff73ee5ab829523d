/// Where the counter reads its step and bounds: the one thing it needs from outside. Read
/// ``rules`` at the moment of each event (never keep a copy), so that a change applies at once.
///
/// The daemon satisfies it from the Settings feature; ``FixedCounterRules`` is the test double
/// (and the choice of a host without settings).
///
/// ```swift
/// struct SettingsRules: CounterRulesSource {
///   let settings: SettingsBloc
///   var rules: CounterRules {  // stored settings only: a refused change is never built upon
///     CounterRules(step: settings.storedSnapshot.state.counterStep, …)
///   }
/// }
/// ```
public protocol CounterRulesSource: Sendable {
  /// The rules now.
  var rules: CounterRules { get }
}

/// Rules that never change.
///
/// ```swift
/// CounterBloc(rules: FixedCounterRules(CounterRules(step: 3, maximum: 10)), storage: storage)
/// ```
public struct FixedCounterRules: CounterRulesSource {
  public let rules: CounterRules

  public init(_ rules: CounterRules = CounterRules()) { self.rules = rules }
}
