/// The state behind a bloc's event dispatch (see EventDispatch.swift): jobs, lanes, timers,
/// and the `DispatchState` record that holds them under the bloc's `dispatch` lock
/// (not named `Dispatch`, which would shadow the Dispatch module).
///
/// The records hold no value whose layout depends on the bloc's types (jobs and lanes are
/// Job.swift's, registrations are boxed or behind dictionaries), so that the queued path, compiled
/// once for every event and state type, reaches them with no runtime generic metadata lookup.
extension Bloc {
  /// A handler as registered: suspending or not.
  enum Body: Sendable {
    case async(Handler)
    case sync(SyncHandler)
  }

  struct Registration {
    let body: Body
    let transformer: EventTransformer
    /// Kinds whose earlier events (running, queued or waiting on a timer) an event of this kind
    /// cancels when it is added.
    let cancels: Set<Event.Kind>
    /// Sequential or droppable, cancelling nothing: on an idle bloc such an event simply
    /// starts (``Bloc/admit(_:inline:)``).
    let startsWhenIdle: Bool
    /// Sequential, cancelling nothing: on a busy bloc such an event simply joins the queue.
    let queuesWhenBusy: Bool
    /// The reducer itself, for the reducer's registration (``Bloc/reduce(_:)``): an event
    /// handled straight through (``Bloc/handleInline(_:)``) is reduced under the state's lock
    /// with no emitter.
    let reduce: (@Sendable (State, Event) throws -> State)?

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

  /// A registration, boxed (``DispatchState/handlings``).
  class Handling {
    let registration: Registration

    init(_ registration: Registration) { self.registration = registration }
  }

  /// A kind's own registration, with the kind.
  final class KindHandling: Handling {
    fileprivate let kind: Event.Kind

    init(kind: Event.Kind, _ registration: Registration) {
      self.kind = kind
      super.init(registration)
    }
  }

  /// The registration of `kind`'s events (``DispatchState/registration(for:)``), found by a
  /// scan of the few kinds the bloc handles.
  /// Unchecked casts: `register` puts only `KindHandling`s in `handlings`, a `Handling` in
  /// `reducerHandling`; `as!` cost 36 instructions per queued event.
  final func handling(of kind: Event.Kind, _ dispatch: inout DispatchState) -> Handling? {
    for handling in dispatch.handlings {
      let handling = unsafeDowncast(handling, to: KindHandling.self)
      if handling.kind == kind { return handling }
    }
    guard let reducer = dispatch.reducerHandling else { return nil }
    return unsafeDowncast(reducer, to: Handling.self)
  }

  /// ``DispatchState/idleStart``'s box.
  final class IdleStart {
    let kind: Event.Kind
    let handler: SyncHandler

    init(kind: Event.Kind, handler: @escaping SyncHandler) {
      self.kind = kind
      self.handler = handler
    }
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

  struct DispatchState {
    var handlers: [Event.Kind: Registration] = [:]
    /// The reducer's handler (``Bloc/reduce(_:)``): takes, in order, every event whose kind has
    /// no handler of its own.
    var reducer: Registration?
    /// The registrations again, each boxed with its kind (a `Handling`), and the reducer's:
    /// what ``Bloc/handling(of:_:)`` scans, without hashing a kind or a runtime metadata lookup
    /// (a bloc has a few kinds).
    var handlings: [AnyObject] = []
    var reducerHandling: AnyObject?
    /// Every event goes to the reducer (no kind has a handler of its own): the order may be
    /// claimed without the lock while idle (``LaneGate``). Stays true once closed.
    var reducerOnly = false
    /// Kinds whose running handler something can cancel (restartable, debounce, throttle, or
    /// named in a `cancels:`); `send` never runs those in the caller's task.
    var cancellable: Set<Event.Kind> = []
    /// The bloc's order, which every event joins but `.concurrent` and `.independent` ones.
    var main = Lane()
    /// The lanes of `.independent` kinds.
    var lanes: [Event.Kind: Lane] = [:]
    /// Runners that lost the queue to a cancellation and are winding down, by id.
    var retired: [UInt64: Task<Void, Never>] = [:]
    var concurrent: [UInt64: (kind: Event.Kind, task: Task<Void, Never>, emitter: Emitter<State>)] =
      [:]
    var pacings: [Event.Kind: Pacing] = [:]
    var timers: [UInt64: Timer] = [:]
    /// Handlers sleeping on the clock, by id.
    var sleepers: [UInt64: Deadline] = [:]
    /// Units of work started and not yet ended: the queue's runner (however many jobs it takes),
    /// a retired runner, a concurrent job, a wait for storage. Queued jobs are not counted, so a
    /// runner asleep on the clock is exactly one sleeper.
    var activeWork = 0
    var settleWaiters: [CheckedContinuation<Bool, Never>] = []
    var isClosed = false
    private var lastID: UInt64 = 0
    /// Events added while a test harness holds them (``Bloc/holdEvents()``), in order; nil
    /// when not holding, as always outside tests.
    var held: [Job]?
    /// The kind whose synchronous, in-order handler ``Bloc/claimIdleLane(for:)`` found last,
    /// with that handler: the usual next event is of the same kind, and comparing kinds costs
    /// far less than hashing one and copying its registration out of `handlers`. Cleared when
    /// a handler is registered and when the handlers are released. Boxed, so that the records'
    /// layout does not depend on the event's kind type.
    var idleStart: IdleStart?

    init() {}

    /// The handler of `kind`'s events: its own, else the reducer. A bloc with only a reducer
    /// never computes the kind.
    func registration(for kind: @autoclosure () -> Event.Kind) -> Registration? {
      handlers.isEmpty ? reducer : handlers[kind()] ?? reducer
    }

    @inline(__always) mutating func nextID() -> UInt64 {
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
        if let current = lane.current { Bloc.emitter(of: current).cancel() }
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
      handlings = []
      reducerHandling = nil
      idleStart = nil
      return (tasks, abandoned)
    }
  }
}

extension Bloc.DispatchState {
  /// Takes a lane out for changing (put it back with ``put(_:_:)``), so that pushing onto its
  /// queue does not copy the queue.
  mutating func take(_ key: Event.Kind?) -> Lane {
    guard let key else {
      defer { main = Lane() }
      return main
    }
    return lanes.removeValue(forKey: key) ?? Lane()
  }

  mutating func put(_ lane: Lane, _ key: Event.Kind?) {
    if let key { lanes[key] = lane } else { main = lane }
  }

  /// The lane of `kind`'s events: its own for an `.independent` kind, else the bloc's (nil).
  func laneKey(of kind: Event.Kind) -> Event.Kind? {
    guard let registration = registration(for: kind),
      case .independent = registration.transformer.strategy
    else { return nil }
    return kind
  }

  /// Settle waiters re-check on wake, so waking them on any progress is enough.
  @inline(__always)
  mutating func takeSettleWaiters() -> [CheckedContinuation<Bool, Never>] {
    let waiters = settleWaiters
    settleWaiters = []
    return waiters
  }
}

/// How `admit` may run a job it starts: never in the caller (timers), a synchronous handler in
/// the caller (`add`), or any handler that nothing can cancel (`send`).
enum Inline {
  case never, synchronous, any
}
