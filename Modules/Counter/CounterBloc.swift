import BlocCore

/// The count, persisted under ``CounterFeature/storageKey``, with undo and redo.
///
/// ```swift
/// let counter = CounterBloc(rules: FixedCounterRules(CounterRules(step: 5)), storage: storage)
/// await counter.send(.increment)               // count 5
/// await counter.send(.set(7))                  // count 7
/// counter.undo()                               // count 5
/// ```
/// Step and bounds are read from `rules` as each event is handled (see ``CounterRules``).
/// A refused event fails with a ``CounterError`` and leaves the count unchanged. A handled
/// event's outcome arrives once the count is stored. Undo and redo (``BlocBase/undo()``) are
/// not checked against the bounds and their history is not persisted.
public final class CounterBloc: Bloc<CounterEvent, CounterState>, @unchecked Sendable {
  // @unchecked: the library's pattern; Bloc keeps all mutable state behind its own locks.

  /// - Parameters:
  ///   - rules: read at every event; the daemon's come from Settings.
  ///   - history: undo steps kept; nil keeps none.
  public init(
    rules: any CounterRulesSource = FixedCounterRules(), storage: any BlocStorage,
    history: HistoryLimit? = CounterFeature.historyLimit
  ) {
    super.init(
      initialState: CounterState(), history: history,
      persistence: Persistence(storage: storage, key: CounterFeature.storageKey))
    on(.count) { event, emit in
      emit(CounterState(count: try rules.rules.count(after: event, from: emit.state.count)))
    }
  }
}
