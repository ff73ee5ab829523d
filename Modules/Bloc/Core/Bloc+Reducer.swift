/// A bloc whose events are synchronous is one reducer: `state, event → state or error`, with
/// an exhaustive `switch`, so an event without handling does not compile.
///
/// ```swift
/// enum CounterEvent: BlocEvent, Hashable { case increment, set(Int) }
///
/// let counter = Bloc<CounterEvent, Int>(initialState: 0) { count, event in
///   switch event {
///   case .increment: count + 1
///   case .set(let value): value
///   }
/// }
/// counter.add(.increment)  // handled inline, in the caller: done on return
/// counter.state            // 1
/// ```
/// The reducer runs under the bloc's lock (as ``Emitter/update(_:)``'s body does): keep it
/// quick and pure. A thrown error fails the event and changes nothing. Events are handled one at
/// a time in the order they are added, and on an idle bloc `add` runs the reducer in the caller
/// (no task, no thread hop): the path the library optimises for.
extension Bloc {
  /// Creates a bloc whose every event is handled by `reduce`.
  ///
  /// - Parameters:
  ///   - initialState: the state before any event (or before the stored one is restored).
  ///   - clock: drives debounce and throttle; inject a test clock for virtual time.
  ///   - history: keeps past states for undo and redo; nil (the default) keeps none.
  ///   - persistence: saves every change and restores the state at creation.
  ///   - name: for logs and errors; the type's name when nil.
  ///   - reduce: the next state for an event, or the error that refuses it. Read what else it
  ///     needs (rules, settings) when called, not once at creation.
  public convenience init<Failure: Error>(
    initialState: State, clock: any Clock<Duration> = ContinuousClock(),
    history: HistoryLimit? = nil, persistence: Persistence<State>? = nil, name: String? = nil,
    reduce: @escaping @Sendable (State, Event) throws(Failure) -> State
  ) {
    self.init(
      initialState: initialState, clock: clock, history: history, persistence: persistence,
      name: name)
    self.reduce(reduce)
  }

  /// Registers a reducer: it handles, in order, every event whose kind has no handler of its
  /// own (registered with `on(kind)`). A bloc can mix the two: handlers where
  /// an event needs a transformer or must await, the reducer for the rest.
  ///
  /// ```swift
  /// bloc.on(.search, transformer: .restartable) { event, emit in … }
  /// bloc.reduce { state, event in try state.applying(event) }
  /// ```
  /// Call it at most once, before adding events.
  ///
  /// In a release build the handler wrapping `reduce` is specialised in the caller's module
  /// for its event and state types (cross-module optimisation): every change a reducer makes
  /// runs ``Emitter/update(_:)`` and the bloc's internal `apply` without a runtime generic
  /// metadata lookup (unspecialised, about a third of their cost).
  public func reduce<Failure: Error>(
    _ reduce: @escaping @Sendable (State, Event) throws(Failure) -> State
  ) {
    let body = Body.sync { event, emit in
      try emit.update { (state: inout State) throws(Failure) in state = try reduce(state, event) }
    }
    let reducer: @Sendable (State, Event) throws -> State = { state, event in
      try reduce(state, event)
    }
    register(Registration(body: body, transformer: .sequential, cancels: [], reduce: reducer))
  }

  /// Registers `registration` as the reducer's (``reduce(_:)``).
  private func register(_ registration: Registration) {
    let registered = withDispatch { dispatch -> Bool in
      if dispatch.reducer != nil { return false }
      dispatch.reducer = registration
      dispatch.reducerHandling = Handling(registration)
      dispatch.reducerOnly = dispatch.handlers.isEmpty
      dispatch.idleStart = nil
      return true
    }
    precondition(registered, "\(name): reduce(_:) was called twice; a bloc has one reducer")
  }

  /// Whether the bloc has a handler for `event` (its kind's own, or the reducer): what a
  /// conformance check asks of every declared event, so that a forgotten handler fails a test
  /// instead of a client's request (``BlocError/unhandledEvent(bloc:event:)``).
  public func handles(_ event: Event) -> Bool {
    withDispatch { $0.registration(for: event.kind) != nil }
  }
}
