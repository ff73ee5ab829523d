/// Where a feature reads the current settings. Read ``current`` at the moment a value is
/// needed (never keep a copy), so that a change applies at once.
///
/// ```swift
/// final class CounterBloc: Bloc<CounterEvent, CounterState> {
///   init(settings: any SettingsProvider, …) {
///     on(.count) { event, emit in let step = settings.current.counterStep … }
///   }
/// }
/// ```
/// ``SettingsBloc`` is the real provider; ``FixedSettings`` is a test double.
public protocol SettingsProvider: Sendable {
  /// The settings now.
  var current: SettingsState { get }
}

/// Settings that never change; for tests and for hosts without a settings feature.
///
/// ```swift
/// let settings = FixedSettings(try .defaults.setting(.counterStep, to: 5))
/// ```
public struct FixedSettings: SettingsProvider {
  public let current: SettingsState

  public init(_ current: SettingsState = .defaults) { self.current = current }
}
