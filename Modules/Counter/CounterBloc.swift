import BlocCore

/// The count, persisted under ``CounterFeature/storageKey``, with undo and redo: a
/// `Bloc<CounterEvent, CounterState>` whose events are handled by one reducer (no subclass).
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
public typealias CounterBloc = Bloc<CounterEvent, CounterState>

extension Bloc where Event == CounterEvent, State == CounterState {
  /// - Parameters:
  ///   - rules: read at every event; the daemon's come from Settings.
  ///   - history: undo steps kept; nil keeps none.
  public convenience init(
    rules: any CounterRulesSource = FixedCounterRules(), storage: any BlocStorage,
    history: HistoryLimit? = CounterFeature.historyLimit
  ) {
    self.init(
      initialState: CounterState(), history: history,
      persistence: Persistence(storage: storage, key: CounterFeature.storageKey),
      name: "CounterBloc"
    ) { state, event throws(CounterError) in
      // One reducer, in order; the rules are read as each event is handled.
      CounterState(count: try rules.rules.count(after: event, from: state.count))
    }
  }
}
