import BlocCore

/// Holds the settings, persisted under ``SettingsFeature/storageKey``. Other features never
/// import it: the host reads ``BlocBase/state`` to satisfy their own service protocols.
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
public final class SettingsBloc: Bloc<SettingsEvent, SettingsState>, @unchecked Sendable {
  // @unchecked: the library's pattern; Bloc keeps all mutable state behind its own locks.

  /// - Parameters:
  ///   - defaults: the settings before any change, and what `reset` and `resetAll` restore.
  ///   - unreadable: what to do with a stored value that cannot be read (by default it is kept
  ///     aside and the defaults apply; see ``BlocBase/restoreIssue``).
  public init(
    storage: any BlocStorage, defaults: any SettingsDefaultsSource = BuiltInSettingsDefaults(),
    unreadable: UnreadablePolicy = .keepAside
  ) {
    super.init(
      initialState: defaults.defaults,
      persistence: Persistence(
        storage: storage, key: SettingsFeature.storageKey, unreadable: unreadable))
    on(.change) { event, emit in
      emit(try emit.state.applying(event, defaults: defaults.defaults))
    }
  }
}
