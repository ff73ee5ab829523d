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
  @usableFromInline let dispatch = Locked(DispatchState())
  /// Who decides about the bloc's order: the lock's records, or a claimant without the lock
  /// (``LaneGate``).
  @usableFromInline let laneGate = Atomic<LaneGate>(.locked)
  /// The reducer a claimant of the free order runs: set under the lock before the gate opens,
  /// cleared under it once closed, never changed while the order is claimed (``LaneGate``):
  /// the gate keeps accesses apart, so the runtime need not check them.
  @usableFromInline @exclusivity(unchecked)
  var freeReducer: (@Sendable (State, Event) throws -> State)?
  private let givenName: String?

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

  /// Registers the handler of one event kind; call it once per kind, before adding events.
  ///
  /// - Parameters:
  ///   - kind: the kind of event the handler handles.
  ///   - transformer: how events of this kind overlap; the bloc's default when nil.
  ///   - cancels: kinds whose earlier events an event of this kind cancels when added —
  ///     running (its emits are dropped from then on), queued, or waiting on a debounce or
  ///     throttle timer. A `clear` that discards a search in flight:
  ///     `on(.clear, cancels: [.search]) { _, emit in emit(.empty) }`.
  ///   - handler: turns each event of this kind into states with its emitter.
  public func on(
    _ kind: Event.Kind, transformer: EventTransformer? = nil, cancels: Set<Event.Kind> = [],
    _ handler: @escaping Handler
  ) {
    register(
      kind,
      Registration(
        body: .async(handler), transformer: transformer ?? defaultTransformer, cancels: cancels))
  }

  /// Registers a handler that never suspends. On an idle bloc, `add` runs it to completion in
  /// the caller's thread, so the receipt is resolved on return (for a persisted bloc, once the
  /// change is stored). Otherwise it waits its turn like any other.
  ///
  /// ```swift
  /// bloc.on(.increment) { _, emit in emit.update { $0 += 1 } }
  /// ```
  public func on(
    _ kind: Event.Kind, transformer: EventTransformer? = nil, cancels: Set<Event.Kind> = [],
    _ handler: @escaping SyncHandler
  ) {
    register(
      kind,
      Registration(
        body: .sync(handler), transformer: transformer ?? defaultTransformer, cancels: cancels))
  }

  private func register(_ kind: Event.Kind, _ registration: Registration) {
    let registered = withDispatch { dispatch -> Bool in
      if dispatch.handlers[kind] != nil { return false }
      dispatch.handlers[kind] = registration
      dispatch.reducerOnly = false
      dispatch.idleStart = nil
      dispatch.cancellable.formUnion(registration.cancels)
      switch registration.transformer.strategy {
      case .restartable, .debounce, .throttle: dispatch.cancellable.insert(kind)
      case .concurrent, .sequential, .independent, .droppable: break
      }
      return true
    }
    precondition(registered, "\(name): on(\(kind)) was called twice; register one handler per kind")
  }

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

  // MARK: Adding events

  /// Adds an event. Await the receipt's ``EventReceipt/outcome`` to know when it is done
  /// (including, for a persisted bloc, when its changes are stored); or ignore it.
  ///
  /// A synchronous handler (one that never awaits) on an idle bloc runs before `add` returns.
  @inlinable @discardableResult
  public final func add(_ event: Event) -> EventReceipt { add(event, fromHold: false) }

  /// ``add(_:)``, or (`fromHold`) the admission of an event a test harness held.
  @inlinable final func add(_ event: Event, fromHold: Bool) -> EventReceipt {
    if !fromHold {
      onEvent(event)
      // The usual case, a synchronous handler on an idle bloc: claimed and run here.
      if let claim = claimIdleLane(for: event) {
        let outcome = runClaimed(event, claim)
        return claim.receipt ?? .resolved(outcome)
      }
    }
    let (receipt, inline) = admit(event, inline: .synchronous, fromHold: fromHold, announced: true)
    if let inline, case .sync(let handler) = inline.body {
      let outcome = execute(inline.job, handler: handler, emitter: inline.emitter)
      finishedInline(inline)
      return receipt ?? .resolved(outcome)
    }
    guard let receipt else { preconditionFailure("a job not run inline has a receipt") }
    return receipt
  }

  /// Adds an event and waits for its outcome.
  ///
  /// ```swift
  /// if case .failed(let error) = await bloc.send(.increment) { print(error) }
  /// ```
  /// When the bloc is idle, the handler runs in the caller's task (no task spawned, no thread
  /// hop), unless something can cancel it (restartable, paced, or named in a `cancels:`).
  @inlinable @discardableResult
  public final func send(_ event: Event) async -> EventOutcome {
    onEvent(event)
    // A synchronous handler on an idle bloc, as in `add`: claimed and run here.
    if let claim = claimIdleLane(for: event) {
      let outcome = runClaimed(event, claim)
      guard let receipt = claim.receipt else { return outcome }
      return await receipt.outcome
    }
    let (receipt, inline) = admit(event, inline: .any, announced: true)
    var outcome: EventOutcome?
    if let inline {
      switch inline.body {
      case .sync(let handler):
        outcome = execute(inline.job, handler: handler, emitter: inline.emitter)
      case .async(let handler):
        outcome = await execute(inline.job, handler: handler, emitter: inline.emitter)
      }
      finishedInline(inline)
    }
    if let receipt { return await receipt.outcome }
    guard let outcome else { preconditionFailure("a job not run inline has a receipt") }
    return outcome
  }

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
    for job in abandoned { conclude(job.event, job.receipt, .cancelled) }
    for task in tasks { await task.value }
    await settled()
    await finishClosing()
  }

  // MARK: Running handlers (the ordering logic lives in EventDispatch.swift)

  /// Runs a job's handler and concludes it, or, when its changes must be stored first, arranges
  /// for it to be concluded then (counted as separate work), so the queue moves on meanwhile.
  /// Returns the handler's outcome (final unless it waits for storage).
  @inlinable @discardableResult
  final func execute(_ job: Job, handler: Handler, emitter: Emitter<State>) async -> EventOutcome {
    var outcome: EventOutcome
    do {
      try await handler(job.event, emitter)
      outcome = emitter.isActive && !Task.isCancelled ? .handled : .cancelled
      try checkLoops(of: job, emitter, outcome)
    } catch is CancellationError where Task.isCancelled || !emitter.isActive {
      outcome = .cancelled
    } catch {
      outcome = .failed(error)
      reportError(HandlerFailure(event: job.event, error: error))
    }
    conclude(job, emitter, outcome)
    return outcome
  }

  /// Runs a synchronous handler and concludes its job like ``execute(_:handler:emitter:)``.
  @inlinable @discardableResult
  final func execute(_ job: Job, handler: SyncHandler, emitter: Emitter<State>) -> EventOutcome {
    let outcome = outcome(of: job, handler: handler, emitter: emitter)
    conclude(job, emitter, outcome)
    return outcome
  }

  /// Runs a synchronous handler; returns its outcome, reporting a failure, without concluding.
  @inlinable final func outcome(
    of job: Job, handler: SyncHandler, emitter: Emitter<State>
  ) -> EventOutcome {
    outcome(of: job.event, handler: handler, emitter: emitter)
  }

  /// ``outcome(of:handler:emitter:)`` for an event with no job.
  @inlinable final func outcome(
    of event: Event, handler: SyncHandler, emitter: Emitter<State>
  ) -> EventOutcome {
    do {
      try handler(event, emitter)
      return emitter.isActive ? .handled : .cancelled
    } catch is CancellationError where !emitter.isActive {
      return .cancelled
    } catch {
      reportError(HandlerFailure(event: event, error: error))
      return .failed(error)
    }
  }

  /// An `emit.forEach` still running when its handler returned was not awaited: a misuse.
  @usableFromInline func checkLoops(
    of job: Job, _ emitter: Emitter<State>, _ outcome: EventOutcome
  ) throws {
    if emitter.isLooping, outcome.isHandled {
      throw BlocError.forEachNotAwaited(bloc: name, event: String(describing: job.event))
    }
  }

  @inlinable final func conclude(_ job: Job, _ emitter: Emitter<State>, _ outcome: EventOutcome) {
    emitter.finish()
    let changed = emitter.highestSequence
    guard changed > 0, isPersisted else {
      conclude(job.event, job.receipt, outcome)
      return
    }
    concludeWhenStored(job, changed, outcome)
  }

  /// Concludes `job` once the change of sequence `changed` is stored.
  @inlinable final func concludeWhenStored(
    _ job: Job, _ changed: UInt64, _ outcome: EventOutcome
  ) {
    guard let persister else { return conclude(job.event, job.receipt, outcome) }
    // The wait for storage counts as its own unit of work, taken before the runner ends, so
    // settled() never sees zero while the wait is on.
    withDispatch { $0.activeWork += 1 }
    persister.whenStored(changed) { [outcome] error in
      var final = outcome
      if let error, outcome.isHandled { final = .failed(error) }
      self.conclude(job.event, job.receipt, final)
      self.workEnded()
    }
  }

  /// Suspends a handler on the bloc's clock. While the deadline is ahead, `settled()` treats
  /// the handler as waiting for time, not as work in progress.
  func sleep(for duration: Duration) async throws {
    let id = withDispatch { $0.nextID() }
    let (deadline, sleep) = Self.deadline(on: clock, after: duration)
    let waiters = withDispatch { dispatch in
      dispatch.sleepers[id] = deadline
      return dispatch.takeSettleWaiters()
    }
    for waiter in waiters { waiter.resume(returning: false) }
    defer {
      let waiters = withDispatch { dispatch in
        dispatch.sleepers[id] = nil
        return dispatch.takeSettleWaiters()
      }
      for waiter in waiters { waiter.resume(returning: false) }
    }
    try await sleep()
  }

  @inlinable final func makeEmitter(for event: Event) -> Emitter<State> {
    JobEmitter(bloc: self, event: event) { bloc, event, change in
      bloc.onTransition(Transition(current: change.current, event: event, next: change.next))
    }
  }

  @inlinable final func conclude(_ event: Event, _ receipt: EventReceipt?, _ outcome: EventOutcome)
  {
    onDone(event, outcome: outcome)
    receipt?.resolve(outcome)
  }
}
