import BlocCore

/// Holds the settings, persisted under ``SettingsFeature/storageKey``: a
/// `Bloc<SettingsEvent, SettingsState>` whose events are handled by one reducer (no subclass).
/// Other features never import it: the host reads ``BlocBase/state`` to satisfy their own
/// service protocols.
///
/// ```swift
/// let settings = SettingsBloc(storage: try FileStorage(directory: stateDirectory))
/// if case .failed(let error) = await settings.send(.set(.searchLimit, 500)) {
///   print(error)  // searchLimit must be an integer from 1 to 200; got 500
/// }
/// settings.state.searchLimit  // still 20
/// ```
/// A refused event fails with a ``SettingsError`` and leaves the state unchanged. A handled
/// event's outcome arrives once the new settings are stored.
public typealias SettingsBloc = Bloc<SettingsEvent, SettingsState>

extension Bloc where Event == SettingsEvent, State == SettingsState {
  /// - Parameters:
  ///   - defaults: the settings before any change, and what `reset` and `resetAll` restore.
  ///   - unreadable: what to do with a stored value that cannot be read (by default it is kept
  ///     aside and the defaults apply; see ``BlocBase/restoreIssue``).
  public convenience init(
    storage: any BlocStorage, defaults: any SettingsDefaultsSource = BuiltInSettingsDefaults(),
    unreadable: UnreadablePolicy = .keepAside
  ) {
    self.init(
      initialState: defaults.defaults,
      persistence: Persistence(
        storage: storage, key: SettingsFeature.storageKey, unreadable: unreadable),
      name: "SettingsBloc"
    ) { state, event throws(SettingsError) in
      // One reducer, in order.
      try state.applying(event, defaults: defaults.defaults)
    }
  }
}
