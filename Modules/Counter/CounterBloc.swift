import BlocCore
import Settings

/// The count, persisted under ``CounterFeature/storageKey``, with undo and redo.
///
/// ```swift
/// let settings = SettingsBloc(storage: storage)
/// let counter = CounterBloc(settings: settings, storage: storage)
/// await counter.send(.increment)               // count 1
/// await settings.send(.set(.counterStep, 5))
/// await counter.send(.increment)               // count 6: the new step applies at once
/// counter.undo()                               // count 1
/// ```
/// Step and bounds are read from `settings` as each event is handled (see ``CounterRules``).
/// A refused event fails with a ``CounterError`` and leaves the count unchanged. A handled
/// event's outcome arrives once the count is stored. Undo and redo (``BlocBase/undo()``) are
/// not checked against the bounds and their history is not persisted.
public final class CounterBloc: Bloc<CounterEvent, CounterState>, @unchecked Sendable {
  // @unchecked: the library's pattern; Bloc keeps all mutable state behind its own locks.

  /// - Parameters:
  ///   - settings: read at every event; usually the host's ``SettingsBloc``.
  ///   - history: undo steps kept; nil keeps none.
  public init(
    settings: any SettingsProvider, storage: any BlocStorage,
    history: HistoryLimit? = CounterFeature.historyLimit
  ) {
    super.init(
      initialState: CounterState(), history: history,
      persistence: Persistence(storage: storage, key: CounterFeature.storageKey))
    on(.count) { event, emit in
      let rules = CounterRules(settings.current)
      emit(CounterState(count: try rules.count(after: event, from: emit.state.count)))
    }
  }
}
