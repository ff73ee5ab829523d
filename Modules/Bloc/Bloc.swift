/// Handles events into states. Register one handler per event kind in `init`:
///
/// ```swift
/// enum CounterEvent: BlocEvent { case increment, decrement }
///
/// final class CounterBloc: Bloc<CounterEvent, Int> {
///   init() {
///     super.init(initialState: 0)
///     on(.increment) { _, emit in emit(emit.state + 1) }
///     on(.decrement) { _, emit in emit(emit.state - 1) }
///   }
/// }
///
/// let bloc = CounterBloc()
/// let outcome = await bloc.add(.increment).outcome  // .handled
/// bloc.state                                         // 1
/// ```
/// Handlers run on the concurrency pool; each kind's ``EventTransformer`` (default: the bloc's
/// `transformer`, itself `.sequential` by default) decides how overlapping events are treated.
/// `close()` releases the handlers, so they may capture `self`.
open class Bloc<Event: BlocEvent, State: Sendable & Equatable>: BlocBase<State>,
  @unchecked Sendable  // mutable state only behind the `core` and `dispatch` locks
{
  /// A handler: gets the event and an emitter; may emit any number of states.
  public typealias Handler = @Sendable (Event, Emitter<State>) async throws -> Void

  /// The clock every time-based transformer and `emit.clock` use.
  public let clock: any Clock<Duration>
  let defaultTransformer: EventTransformer
  let dispatch = Locked(Dispatch())

  /// - Parameters:
  ///   - initialState: the state until the first change (or the stored one, see `persistence`).
  ///   - transformer: used by handlers registered without one of their own.
  ///   - clock: drives debounce and throttle; inject a test clock for virtual time.
  ///   - history: keeps past states for undo and redo; nil (the default) keeps none.
  ///   - persistence: saves every change and restores the state at creation.
  public init(
    initialState: State, transformer: EventTransformer = .sequential,
    clock: any Clock<Duration> = ContinuousClock(), history: HistoryLimit? = nil,
    persistence: Persistence<State>? = nil
  ) {
    self.clock = clock
    self.defaultTransformer = transformer
    super.init(initialState: initialState, history: history, persistence: persistence)
  }

  /// Registers the handler of one event kind; call it once per kind, in `init`.
  public func on(
    _ kind: Event.Kind, transformer: EventTransformer? = nil, _ handler: @escaping Handler
  ) {
    let registered = dispatch.withLock { dispatch -> Bool in
      if dispatch.handlers[kind] != nil { return false }
      dispatch.handlers[kind] = Registration(
        handler: handler, transformer: transformer ?? defaultTransformer)
      return true
    }
    precondition(registered, "\(name): on(\(kind)) was called twice; register one handler per kind")
  }

  // MARK: Hooks

  /// Called when an event is added, before it is handled. Call `super` to keep observers informed.
  open func onEvent(_ event: Event) {
    for entry in observers { entry.observer.onEvent(self, event: event) }
  }

  /// Called for every change a handler makes, before ``BlocBase/onChange(_:)``.
  open func onTransition(_ transition: Transition<Event, State>) {
    for entry in observers { entry.observer.onTransition(self, transition: transition) }
  }

  /// Called when an event's outcome is known.
  open func onDone(_ event: Event, outcome: EventOutcome) {
    for entry in observers { entry.observer.onDone(self, event: event, outcome: outcome) }
  }

  // MARK: Adding events

  /// Adds an event. Await the receipt's ``EventReceipt/outcome`` to know when it is done
  /// (including, for a persisted bloc, when its changes are stored); or ignore it.
  @discardableResult
  public func add(_ event: Event) -> EventReceipt {
    onEvent(event)
    let receipt = EventReceipt()
    let (refusal, dropped) = dispatch.withLock { dispatch -> (BlocError?, Job?) in
      if dispatch.isClosed {
        return (.addAfterClose(bloc: name, event: String(describing: event)), nil)
      }
      guard let registration = dispatch.handlers[event.kind] else {
        return (.unhandledEvent(bloc: name, event: String(describing: event)), nil)
      }
      let job = Job(id: dispatch.nextID(), event: event, receipt: receipt)
      return (nil, admit(job, registration, into: &dispatch))
    }
    if let dropped { conclude(dropped.event, dropped.receipt, .dropped) }
    if let refusal {
      reportError(refusal)
      conclude(event, receipt, .failed(refusal))
    }
    return receipt
  }

  /// Adds an event and waits for its outcome.
  ///
  /// ```swift
  /// if case .failed(let error) = await bloc.send(.increment) { print(error) }
  /// ```
  @discardableResult
  public func send(_ event: Event) async -> EventOutcome {
    guard let (job, handler, emitter) = claimIdleSequentialLane(for: event) else {
      return await add(event).outcome
    }
    // Fast path: the lane is idle, so handle the event in the caller's task, with no task
    // spawned and no thread hop. Events added meanwhile queue up and are handed to a runner.
    onEvent(event)
    await execute(job, handler: handler, emitter: emitter)
    handOverSequentialLane(of: event.kind, job: job.id)
    return await job.receipt.outcome
  }

  /// Waits until all work started by earlier events is finished: handlers running or queued,
  /// and debounce or throttle timers whose time has come. Timers not yet due are not awaited,
  /// so with a test clock: advance it, then await `settled()`.
  open override func settled() async {
    while true {
      let done: Bool = await withCheckedContinuation { continuation in
        let idle = dispatch.withLock { dispatch -> Bool in
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
    dispatch.withLock { dispatch in
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
    let (tasks, abandoned) = dispatch.withLock { dispatch in dispatch.shutDown() }
    for job in abandoned { conclude(job.event, job.receipt, .cancelled) }
    for task in tasks { await task.value }
    await settled()
    await finishClosing()
  }

  // MARK: Running handlers (the lane logic lives in EventDispatch.swift)

  /// Runs a job's handler and concludes it, or, when its changes must be stored first, arranges
  /// for it to be concluded then (counted as separate work), so the lane is released early and
  /// later events run meanwhile. The caller uncounts the job itself.
  func execute(_ job: Job, handler: Handler, emitter: Emitter<State>) async {
    var outcome: EventOutcome
    do {
      try await handler(job.event, emitter)
      outcome = emitter.isActive && !Task.isCancelled ? .handled : .cancelled
      if emitter.isLooping, outcome.isHandled {
        throw BlocError.forEachNotAwaited(bloc: name, event: String(describing: job.event))
      }
    } catch is CancellationError where Task.isCancelled || !emitter.isActive {
      outcome = .cancelled
    } catch {
      outcome = .failed(error)
      reportError(HandlerFailure(event: job.event, error: error))
    }
    emitter.finish()
    let changed = emitter.highestSequence
    guard changed > 0, let persister else {
      conclude(job.event, job.receipt, outcome)
      return
    }
    // The wait for storage counts as its own unit of work, taken before the caller uncounts the
    // job, so settled() never sees zero while the lane still has queued jobs to pop.
    dispatch.withLock { $0.activeWork += 1 }
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
    let id = dispatch.withLock { $0.nextID() }
    let (deadline, sleep) = Self.deadline(on: clock, after: duration)
    let waiters = dispatch.withLock { dispatch in
      dispatch.sleepers[id] = deadline
      return dispatch.takeSettleWaiters()
    }
    for waiter in waiters { waiter.resume(returning: false) }
    defer {
      let waiters = dispatch.withLock { dispatch in
        dispatch.sleepers[id] = nil
        return dispatch.takeSettleWaiters()
      }
      for waiter in waiters { waiter.resume(returning: false) }
    }
    try await sleep()
  }

  func makeEmitter(for event: Event) -> Emitter<State> {
    JobEmitter(bloc: self, event: event)
  }

  func conclude(_ event: Event, _ receipt: EventReceipt, _ outcome: EventOutcome) {
    onDone(event, outcome: outcome)
    receipt.resolve(outcome)
  }
}
