/// Where the settings' defaults come from: the one thing Settings takes from outside. They are
/// the settings before any change, and what `reset` and `resetAll` restore. A key missing from
/// a stored value takes its built-in default (``SettingsState/defaults``), and `describe` shows
/// the built-in defaults.
///
/// ```swift
/// SettingsBloc(storage: storage)  // BuiltInSettingsDefaults: the daemon's
/// SettingsBloc(storage: storage, defaults: FixedSettingsDefaults(.with(.set(.searchLimit, 5))))
/// ```
public protocol SettingsDefaultsSource: Sendable {
  var defaults: SettingsState { get }
}

/// The built-in defaults (``SettingsState/defaults``): the live implementation.
public struct BuiltInSettingsDefaults: SettingsDefaultsSource {
  public init() {}

  public var defaults: SettingsState { .defaults }
}

/// Other defaults, fixed at creation: the test double (or a host's own choice).
public struct FixedSettingsDefaults: SettingsDefaultsSource {
  public let defaults: SettingsState

  public init(_ defaults: SettingsState) { self.defaults = defaults }
}
