/// The state behind a bloc's event dispatch (see EventDispatch.swift): jobs, lanes, timers,
/// and the `DispatchState` record that holds them under the bloc's `dispatch` lock
/// (not named `Dispatch`, which would shadow the Dispatch module).
///
/// The types the inlined path touches are `@usableFromInline`, so that a client module compiles
/// that path specialised for its own event and state types.
extension Bloc {
  @usableFromInline struct Job: Sendable {
    @usableFromInline let id: UInt64
    @usableFromInline let event: Event
    /// Nil for a job that `add` or `send` runs inline on an unpersisted bloc: its outcome is
    /// known on return, so the caller gets a shared resolved receipt instead
    /// (``EventReceipt/resolved(_:)``).
    @usableFromInline let receipt: EventReceipt?

    @inlinable init(id: UInt64, event: Event, receipt: EventReceipt?) {
      self.id = id
      self.event = event
      self.receipt = receipt
    }
  }

  /// A handler as registered: suspending or not.
  @usableFromInline enum Body: Sendable {
    case async(Handler)
    case sync(SyncHandler)
  }

  @usableFromInline struct Registration {
    @usableFromInline let body: Body
    let transformer: EventTransformer
    /// Kinds whose earlier events (running, queued or waiting on a timer) an event of this kind
    /// cancels when it is added.
    let cancels: Set<Event.Kind>
    /// Sequential or droppable, cancelling nothing: on an idle bloc such an event simply
    /// starts (``Bloc/admit(_:inline:)``).
    @usableFromInline let startsWhenIdle: Bool
    /// Sequential, cancelling nothing: on a busy bloc such an event simply joins the queue.
    @usableFromInline let queuesWhenBusy: Bool
    /// The reducer itself, for the reducer's registration (``Bloc/reduce(_:)``): an event
    /// handled straight through (``Bloc/handleInline(_:)``) is reduced under the state's lock
    /// with no emitter.
    @usableFromInline let reduce: (@Sendable (State, Event) throws -> State)?

    @usableFromInline
    init(
      body: Body, transformer: EventTransformer, cancels: Set<Event.Kind>,
      reduce: (@Sendable (State, Event) throws -> State)? = nil
    ) {
      self.body = body
      self.reduce = reduce
      self.transformer = transformer
      self.cancels = cancels
      switch transformer.strategy {
      case .sequential:
        startsWhenIdle = cancels.isEmpty
        queuesWhenBusy = cancels.isEmpty
      case .droppable:
        startsWhenIdle = cancels.isEmpty
        queuesWhenBusy = false
      default:
        startsWhenIdle = false
        queuesWhenBusy = false
      }
    }
  }

  /// A queued event's job taken by the runner, with what it needs to run.
  @usableFromInline struct Started: Sendable {
    @usableFromInline let job: Job
    @usableFromInline let body: Body
    @usableFromInline let emitter: Emitter<State>
    /// The runner that owns the lane while this job runs.
    @usableFromInline let runner: UInt64
    /// Whether it came from its kind's own lane (`.independent`) rather than the bloc's order;
    /// a flag, so that code not specialised for the bloc's types needs no metadata to test it.
    @usableFromInline let ownLane: Bool

    /// The lane it came from: nil for the bloc's order, else an `.independent` kind's own.
    @inlinable var lane: Event.Kind? { ownLane ? job.event.kind : nil }

    @inlinable init(
      job: Job, body: Body, emitter: Emitter<State>, runner: UInt64, lane: Event.Kind?
    ) {
      self.job = job
      self.body = body
      self.emitter = emitter
      self.runner = runner
      self.ownLane = lane != nil
    }
  }

  /// The queued event that is running now.
  @usableFromInline struct Running {
    @usableFromInline let job: Job
    @usableFromInline let emitter: Emitter<State>
    @usableFromInline let runner: UInt64

    @inlinable init(job: Job, emitter: Emitter<State>, runner: UInt64) {
      self.job = job
      self.emitter = emitter
      self.runner = runner
    }
  }

  /// A queue of events handled one at a time, in order, by one runner: the bloc's order, or
  /// an `.independent` kind's own.
  @usableFromInline struct Lane {
    @usableFromInline var queue = FIFO<Job>()
    @usableFromInline var current: Running?
    @usableFromInline var runner: Runner?

    init() {}
  }

  /// A kind's debounce or throttle state.
  struct Pacing {
    var pending: Job?
    var windowOpen = false
    var timer: UInt64?
  }

  struct Timer {
    let task: Task<Void, Never>
    let deadline: Deadline
  }

  /// A point on the bloc's clock, kept as closures because the clock's instant type is opaque.
  struct Deadline {
    let isDue: @Sendable () -> Bool
    let remaining: @Sendable () -> Duration
  }

  @usableFromInline struct DispatchState {
    @usableFromInline var handlers: [Event.Kind: Registration] = [:]
    /// The reducer's handler (``Bloc/reduce(_:)``): takes, in order, every event whose kind has
    /// no handler of its own.
    @usableFromInline var reducer: Registration?
    /// Every event goes to the reducer (no kind has a handler of its own): the order may be
    /// claimed without the lock while idle (``LaneGate``). Stays true once closed.
    @usableFromInline var reducerOnly = false
    /// Kinds whose running handler something can cancel (restartable, debounce, throttle, or
    /// named in a `cancels:`); `send` never runs those in the caller's task.
    @usableFromInline var cancellable: Set<Event.Kind> = []
    /// The bloc's order, which every event joins but `.concurrent` and `.independent` ones.
    @usableFromInline var main = Lane()
    /// The lanes of `.independent` kinds.
    @usableFromInline var lanes: [Event.Kind: Lane] = [:]
    /// Runners that lost the queue to a cancellation and are winding down, by id.
    @usableFromInline var retired: [UInt64: Task<Void, Never>] = [:]
    var concurrent: [UInt64: (kind: Event.Kind, task: Task<Void, Never>, emitter: Emitter<State>)] =
      [:]
    var pacings: [Event.Kind: Pacing] = [:]
    var timers: [UInt64: Timer] = [:]
    /// Handlers sleeping on the clock, by id.
    var sleepers: [UInt64: Deadline] = [:]
    /// Units of work started and not yet ended: the queue's runner (however many jobs it takes),
    /// a retired runner, a concurrent job, a wait for storage. Queued jobs are not counted, so a
    /// runner asleep on the clock is exactly one sleeper.
    @usableFromInline var activeWork = 0
    @usableFromInline var settleWaiters: [CheckedContinuation<Bool, Never>] = []
    @usableFromInline var isClosed = false
    @usableFromInline var lastID: UInt64 = 0
    /// Events added while a test harness holds them (``Bloc/holdEvents()``), in order; nil
    /// when not holding, as always outside tests.
    @usableFromInline var held: [Job]?
    /// The kind whose synchronous, in-order handler ``Bloc/claimIdleLane(for:)`` found last,
    /// with that handler: the usual next event is of the same kind, and comparing kinds costs
    /// far less than hashing one and copying its registration out of `handlers`. Cleared when
    /// a handler is registered and when the handlers are released.
    @usableFromInline var idleStart: (kind: Event.Kind, handler: SyncHandler)?

    init() {}

    /// The handler of `kind`'s events: its own, else the reducer. A bloc with only a reducer
    /// never computes the kind.
    @inlinable func registration(for kind: @autoclosure () -> Event.Kind) -> Registration? {
      handlers.isEmpty ? reducer : handlers[kind()] ?? reducer
    }

    @inlinable mutating func nextID() -> UInt64 {
      lastID &+= 1
      return lastID
    }

    /// Idle when every started job is asleep until a deadline still ahead and no timer is due:
    /// nothing can happen until the clock moves.
    var isIdle: Bool {
      var waitingForTime = 0
      for deadline in sleepers.values where !deadline.isDue() { waitingForTime += 1 }
      return activeWork == waitingForTime && !timers.values.contains { $0.deadline.isDue() }
    }

    /// Closes the dispatch: returns the tasks to await and the jobs that will never run.
    mutating func shutDown() -> ([Task<Void, Never>], [Job]) {
      isClosed = true
      var abandoned: [Job] = held ?? []
      held = nil
      var tasks: [Task<Void, Never>] = Array(retired.values)
      for var lane in [main] + Array(lanes.values) {
        abandoned += lane.queue.takeAll()
        lane.current?.emitter.cancel()
        if let task = lane.runner?.task {
          task.cancel()
          tasks.append(task)
        }
      }
      main = Lane()
      lanes = [:]
      for (kind, gate) in pacings {
        if let pending = gate.pending { abandoned.append(pending) }
        pacings[kind] = nil
      }
      for timer in timers.values { timer.task.cancel() }
      timers = [:]
      for entry in concurrent.values {
        entry.emitter.cancel()
        entry.task.cancel()
        tasks.append(entry.task)
      }
      handlers = [:]
      reducer = nil
      idleStart = nil
      return (tasks, abandoned)
    }
  }

  /// What `admit` decided besides queueing: jobs to conclude once the lock is released (since
  /// concluding runs hooks), and a job the caller must run itself.
  @usableFromInline struct Admission {
    var concluded: [(Job, EventOutcome)] = []
    @usableFromInline var inline: Started?
    /// The bloc was closed or has no handler for the event.
    @usableFromInline var refused = false

    @usableFromInline init() {}
  }
}

extension Bloc.DispatchState {
  /// Takes a lane out for changing (put it back with ``put(_:_:)``), so that pushing onto its
  /// queue does not copy the queue.
  mutating func take(_ key: Event.Kind?) -> Bloc.Lane {
    guard let key else {
      defer { main = Bloc.Lane() }
      return main
    }
    return lanes.removeValue(forKey: key) ?? Bloc.Lane()
  }

  mutating func put(_ lane: Bloc.Lane, _ key: Event.Kind?) {
    if let key { lanes[key] = lane } else { main = lane }
  }

  // In-place access to a lane's parts: the bloc's own lane (nil) or an independent kind's.

  @inlinable func currentRunner(_ key: Event.Kind?) -> UInt64? {
    guard let key else { return main.current?.runner }
    return lanes[key]?.current?.runner
  }

  @inlinable func runnerID(_ key: Event.Kind?) -> UInt64? {
    guard let key else { return main.runner?.id }
    return lanes[key]?.runner?.id
  }

  @inlinable mutating func popQueue(_ key: Event.Kind?) -> Bloc.Job? {
    guard let key else { return main.queue.pop() }
    return lanes[key]?.queue.pop()
  }

  @inlinable mutating func setCurrent(_ running: Bloc.Running?, _ key: Event.Kind?) {
    guard let key else {
      main.current = running
      return
    }
    lanes[key]?.current = running
  }

  @inlinable mutating func setRunner(_ runner: Runner?, _ key: Event.Kind?) {
    guard let key else {
      main.runner = runner
      return
    }
    lanes[key]?.runner = runner
  }

  /// The lane of `kind`'s events: its own for an `.independent` kind, else the bloc's (nil).
  func laneKey(of kind: Event.Kind) -> Event.Kind? {
    guard let registration = registration(for: kind),
      case .independent = registration.transformer.strategy
    else { return nil }
    return kind
  }

  /// Settle waiters re-check on wake, so waking them on any progress is enough.
  @inlinable mutating func takeSettleWaiters() -> [CheckedContinuation<Bool, Never>] {
    let waiters = settleWaiters
    settleWaiters = []
    return waiters
  }
}

/// Who runs a lane while it is busy: a caller inline (`add` or `send`, no task), or a task.
/// Outside the generic `Bloc` so that the hot path needs no metadata lookup for it.
@usableFromInline struct Runner {
  @usableFromInline let id: UInt64
  @usableFromInline var task: Task<Void, Never>?

  @inlinable init(id: UInt64, task: Task<Void, Never>?) {
    self.id = id
    self.task = task
  }
}

/// How `admit` may run a job it starts: never in the caller (timers), a synchronous handler in
/// the caller (`add`), or any handler that nothing can cancel (`send`).
@usableFromInline enum Inline {
  case never, synchronous, any
}
