import Synchronization

/// Handles events into states, one handler per event kind.
///
/// Define a bloc by composition: create a `Bloc` and register its handlers in the closure. The
/// result is plainly `Sendable`, with no subclass to mark `@unchecked`:
///
/// ```swift
/// enum CounterEvent: BlocEvent { case increment, decrement }
///
/// func makeCounter() -> Bloc<CounterEvent, Int> {
///   Bloc(initialState: 0, name: "counter") { bloc in
///     bloc.on(.increment) { _, emit in emit.update { $0 += 1 } }
///     bloc.on(.decrement) { _, emit in emit.update { $0 -= 1 } }
///   }
/// }
///
/// let counter = makeCounter()
/// counter.add(.increment)  // a synchronous handler on an idle bloc: done on return
/// counter.state            // 1
/// ```
/// A bloc whose events are all synchronous is written as one reducer instead, with an
/// exhaustive `switch` (see ``reduce(_:)``): `Bloc(initialState: 0) { count, event in … }`.
/// Or subclass it and register in `init`, to override the hooks (`onChange`, `onEvent`, …).
///
/// **Order.** Events of one bloc are handled in the order they are added, whatever their kind:
/// an event never starts before an earlier one of the same bloc has finished. Transformers
/// qualify this only where they say so: `.concurrent` events run at once, beside everything;
/// a restartable event cancels the running handler of its kind (and one named in `cancels:`
/// cancels those kinds), and a cancelled handler counts as finished, so the queue moves on while
/// it winds down (its later emits are dropped); `.droppable` drops an event while one of its
/// kind runs or waits; debounced and throttled events join the order when their timer lets them
/// through, not when they are added.
///
/// A handler that does not suspend (`on(kind) { event, emit throws in … }`) runs inline in the
/// caller of `add` when the bloc is idle: no task, no thread hop. Other handlers run on the
/// concurrency pool. `close()` releases the handlers, so they may capture the bloc.
open class Bloc<Event: BlocEvent, State: Sendable & Equatable>: BlocBase<State>,
  @unchecked Sendable  // mutable state behind the `core` and `dispatch` locks and the lane gate
{
  /// A handler: gets the event and an emitter; may emit any number of states.
  public typealias Handler = @Sendable (Event, Emitter<State>) async throws -> Void
  /// A handler that never suspends: runs inline in `add`'s caller when the bloc is idle.
  public typealias SyncHandler = @Sendable (Event, Emitter<State>) throws -> Void

  /// The clock every time-based transformer and `emit.clock` use.
  public let clock: any Clock<Duration>
  let defaultTransformer: EventTransformer
  /// The dispatch records; every section under this lock goes through ``withDispatch(_:)``.
  let dispatch = Locked(DispatchState())
  /// Who decides about the bloc's order: the lock's records, or a claimant without the lock
  /// (``LaneGate``).
  let laneGate = Atomic<LaneGate>(.locked)
  /// The reducer a claimant of the free order runs: set under the lock before the gate opens,
  /// cleared under it once closed, never changed while the order is claimed (``LaneGate``):
  /// the gate keeps accesses apart, so the runtime need not check them (90 instructions per
  /// reducer event).
  @exclusivity(unchecked)
  var freeReducer: (@Sendable (State, Event) throws -> State)?
  private let givenName: String?
  /// Whether this is a plain `Bloc`, not a subclass that may override the hooks: decided once,
  /// where comparing types per event looked up `Bloc<Event, State>`'s metadata each time.
  let isPlain: Bool

  /// - Parameters:
  ///   - initialState: the state until the first change (or the stored one, see `persistence`).
  ///   - transformer: used by handlers registered without one of their own.
  ///   - clock: drives debounce and throttle; inject a test clock for virtual time.
  ///   - history: keeps past states for undo and redo; nil (the default) keeps none.
  ///   - persistence: saves every change and restores the state at creation.
  ///   - name: for logs and errors; the type's name when nil.
  public init(
    initialState: State, transformer: EventTransformer = .sequential,
    clock: any Clock<Duration> = ContinuousClock(), history: HistoryLimit? = nil,
    persistence: Persistence<State>? = nil, name: String? = nil
  ) {
    self.clock = clock
    self.defaultTransformer = transformer
    self.givenName = name
    isPlain = Self.self == Bloc<Event, State>.self
    super.init(initialState: initialState, history: history, persistence: persistence)
    // A stored change's event is written by a writer decided once, not looked up per change.
    persister?.writeEvents(of: Event.self)
  }

  /// Creates a bloc and registers its handlers in `handlers`: a bloc by composition.
  ///
  /// ```swift
  /// let toggle = Bloc<ToggleEvent, Bool>(initialState: false) { bloc in
  ///   bloc.on(.flip) { _, emit in emit.update { $0.toggle() } }
  /// }
  /// ```
  public convenience init(
    initialState: State, transformer: EventTransformer = .sequential,
    clock: any Clock<Duration> = ContinuousClock(), history: HistoryLimit? = nil,
    persistence: Persistence<State>? = nil, name: String? = nil,
    handlers register: (Bloc<Event, State>) -> Void
  ) {
    self.init(
      initialState: initialState, transformer: transformer, clock: clock, history: history,
      persistence: persistence, name: name)
    register(self)
  }

  open override var name: String { givenName ?? super.name }

  // MARK: Hooks

  /// Called when an event is added, before it is handled. Call `super` to keep observers informed.
  open func onEvent(_ event: Event) {
    for entry in observers(for: .event) { entry.observer.onEvent(self, event: event) }
  }

  /// Called for every change a handler makes, before ``BlocBase/onChange(_:)``.
  open func onTransition(_ transition: Transition<Event, State>) {
    for entry in observers(for: .transition) {
      entry.observer.onTransition(self, transition: transition)
    }
  }

  /// Called when an event's outcome is known.
  open func onDone(_ event: Event, outcome: EventOutcome) {
    for entry in observers(for: .done) {
      entry.observer.onDone(self, event: event, outcome: outcome)
    }
  }

  // MARK: Settling and closing

  /// Waits until all work started by earlier events is finished: handlers running or queued,
  /// and debounce or throttle timers whose time has come. Timers not yet due are not awaited,
  /// so with a test clock: advance it, then await `settled()`.
  open override func settled() async {
    while true {
      let done: Bool = await withCheckedContinuation { continuation in
        let idle = withDispatch { dispatch -> Bool in
          if dispatch.isIdle { return true }
          dispatch.settleWaiters.append(continuation)
          return false
        }
        if idle { continuation.resume(returning: true) }
      }
      if done { return }
    }
  }

  /// The time until the nearest timer or handler sleep of this bloc, if any. Known as soon as
  /// the timer is armed, before its task reaches the clock: harnesses step time with it.
  open override var nextDelay: Duration? {
    withDispatch { dispatch in
      var nearest: Duration?
      for deadline in dispatch.timers.values.map({ $0.deadline }) + dispatch.sleepers.values {
        let remaining = deadline.remaining()
        if nearest.map({ remaining < $0 }) ?? true { nearest = remaining }
      }
      return nearest
    }
  }

  /// Stops new events, cancels running handlers and waits for them, ends every subscription and
  /// tells observers. Events still queued or waiting are concluded as cancelled. Idempotent.
  open override func close() async {
    guard markClosed() else { return }
    let (tasks, abandoned) = withDispatch { dispatch in dispatch.shutDown() }
    for job in abandoned { conclude(Self.emitter(of: job).event, job.receipt, .cancelled) }
    for task in tasks { await task.value }
    await settled()
    await finishClosing()
  }
}
