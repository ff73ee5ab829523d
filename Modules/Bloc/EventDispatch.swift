/// The bookkeeping behind `add`: which handler runs, which events wait, which timers are armed.
/// Everything here runs under the bloc's `dispatch` lock.
///
/// Order: every event that is not `.concurrent` joins one queue per bloc, in the order it is
/// admitted (a debounced or throttled event when its timer lets it through), and one runner at
/// a time takes them from it, so an event never starts before an earlier one of the same bloc
/// has finished. A cancelled handler counts as finished: its emitter is closed at once, and the
/// queue moves on while it winds down.
///
/// The path of an in-order event on an idle bloc (admit, run inline, finish) is `@inlinable`,
/// with the types it touches `@usableFromInline`: a client module compiles it specialised for
/// its own event and state types, with no runtime generic metadata lookup per event.
extension Bloc {
  @usableFromInline struct Job: Sendable {
    @usableFromInline let id: UInt64
    @usableFromInline let event: Event
    /// Nil for a job that `add` or `send` runs inline on an unpersisted bloc: its outcome is
    /// known on return, so the caller gets a shared resolved receipt instead
    /// (``EventReceipt/resolved(_:)``).
    @usableFromInline let receipt: EventReceipt?

    @usableFromInline init(id: UInt64, event: Event, receipt: EventReceipt?) {
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

    init(body: Body, transformer: EventTransformer, cancels: Set<Event.Kind>) {
      self.body = body
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
    /// The runner that owns the line while this job runs.
    @usableFromInline let runner: UInt64
    /// Whether it came from its kind's own line (`.independent`) rather than the bloc's order;
    /// a flag, so that code not specialised for the bloc's types needs no metadata to test it.
    @usableFromInline let ownLine: Bool

    /// The line it came from: nil for the bloc's order, else an `.independent` kind's own.
    @inlinable var line: Event.Kind? { ownLine ? job.event.kind : nil }

    @usableFromInline init(
      job: Job, body: Body, emitter: Emitter<State>, runner: UInt64, line: Event.Kind?
    ) {
      self.job = job
      self.body = body
      self.emitter = emitter
      self.runner = runner
      self.ownLine = line != nil
    }
  }

  /// The queued event that is running now.
  @usableFromInline struct Running {
    @usableFromInline let job: Job
    @usableFromInline let emitter: Emitter<State>
    @usableFromInline let runner: UInt64

    @usableFromInline init(job: Job, emitter: Emitter<State>, runner: UInt64) {
      self.job = job
      self.emitter = emitter
      self.runner = runner
    }
  }

  /// A queue of events handled one at a time, in order, by one runner: the bloc's order, or
  /// an `.independent` kind's own.
  @usableFromInline struct Line {
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

  @usableFromInline struct Dispatch {
    @usableFromInline var handlers: [Event.Kind: Registration] = [:]
    /// Kinds whose running handler something can cancel (restartable, debounce, throttle, or
    /// named in a `cancels:`); `send` never runs those in the caller's task.
    @usableFromInline var cancellable: Set<Event.Kind> = []
    /// The bloc's order, which every event joins but `.concurrent` and `.independent` ones.
    @usableFromInline var main = Line()
    /// The lines of `.independent` kinds.
    @usableFromInline var lines: [Event.Kind: Line] = [:]
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

    init() {}

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
      var abandoned: [Job] = []
      var tasks: [Task<Void, Never>] = Array(retired.values)
      for var line in [main] + Array(lines.values) {
        abandoned += line.queue.drain()
        line.current?.emitter.finish()
        if let task = line.runner?.task {
          task.cancel()
          tasks.append(task)
        }
      }
      main = Line()
      lines = [:]
      for (kind, gate) in pacings {
        if let pending = gate.pending { abandoned.append(pending) }
        pacings[kind] = nil
      }
      for timer in timers.values { timer.task.cancel() }
      timers = [:]
      for entry in concurrent.values {
        entry.emitter.finish()
        entry.task.cancel()
        tasks.append(entry.task)
      }
      handlers = [:]
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

  /// Decides what happens to a newly added job according to its handler's transformer.
  @usableFromInline func admit(
    _ job: Job, _ registration: Registration, into dispatch: inout Dispatch, inline: Inline
  ) -> Admission {
    var admission = Admission()
    let kind = job.event.kind
    for target in registration.cancels { cancel(target, in: &dispatch, &admission) }
    var line: Event.Kind?
    switch registration.transformer.strategy {
    case .concurrent:
      startConcurrent(job, registration.body, &dispatch)
      return admission
    case .sequential:
      dispatch.main.queue.push(job)
    case .independent:
      line = kind
      dispatch.lines[kind, default: Line()].queue.push(job)
    case .droppable:
      if dispatch.main.current?.job.event.kind == kind
        || dispatch.main.queue.contains(where: { $0.event.kind == kind })
      {
        admission.concluded.append((job, .dropped))
        return admission
      }
      dispatch.main.queue.push(job)
    case .restartable:
      cancel(kind, in: &dispatch, &admission)
      dispatch.main.queue.push(job)
    case .debounce(let interval):
      var gate = dispatch.pacings[kind] ?? Pacing()
      if let replaced = gate.pending { admission.concluded.append((replaced, .dropped)) }
      gate.pending = job
      if let timer = gate.timer { dispatch.timers.removeValue(forKey: timer)?.task.cancel() }
      gate.timer = arm(kind, after: interval(), &dispatch)
      dispatch.pacings[kind] = gate
      return admission
    case .throttle(let interval):
      var gate = dispatch.pacings[kind] ?? Pacing()
      if gate.windowOpen {
        if let replaced = gate.pending { admission.concluded.append((replaced, .dropped)) }
        gate.pending = job
        dispatch.pacings[kind] = gate
        return admission
      }
      gate.windowOpen = true
      gate.timer = arm(kind, after: interval(), &dispatch)
      dispatch.pacings[kind] = gate
      cancel(kind, in: &dispatch, &admission, keepingPending: true)
      dispatch.main.queue.push(job)
    }
    admission.inline = startRunnerIfIdle(line, &dispatch, inline: inline)
    return admission
  }

  /// Cancels every earlier event of `kind`: the running one (its emitter closes at once and its
  /// line moves on), queued ones, one waiting on a debounce or throttle timer, concurrent ones.
  private func cancel(
    _ kind: Event.Kind, in dispatch: inout Dispatch, _ admission: inout Admission,
    keepingPending: Bool = false
  ) {
    let key = dispatch.lineKey(of: kind)
    var line = dispatch.take(key)
    if let current = line.current, current.job.event.kind == kind {
      current.emitter.finish()
      if let runner = line.runner {
        if let task = runner.task {
          task.cancel()
          dispatch.retired[runner.id] = task
        }
        // A retired runner (or inline caller) still counts as work until it ends.
        line.runner = nil
      }
      line.current = nil
    }
    if line.queue.contains(where: { $0.event.kind == kind }) {
      for job in line.queue.removeAll(where: { $0.event.kind == kind }) {
        admission.concluded.append((job, .cancelled))
      }
    }
    dispatch.put(line, key)
    // Its line may have lost its runner: start another for the jobs left, if any.
    _ = startRunnerIfIdle(key, &dispatch, inline: .never)
    if !keepingPending, var gate = dispatch.pacings[kind], let pending = gate.pending {
      gate.pending = nil
      if !gate.windowOpen, let timer = gate.timer {
        dispatch.timers.removeValue(forKey: timer)?.task.cancel()
        gate.timer = nil
      }
      dispatch.pacings[kind] = gate
      admission.concluded.append((pending, .cancelled))
    }
    for entry in dispatch.concurrent.values where entry.kind == kind {
      entry.emitter.finish()
      entry.task.cancel()
    }
  }

  /// When no runner owns the line and a job waits, takes it: for the caller to run inline when
  /// `inline` allows, else on a new runner task. The bloc's own line is changed in place (this
  /// is the hot path), an independent kind's through the dictionary.
  private func startRunnerIfIdle(
    _ key: Event.Kind?, _ dispatch: inout Dispatch, inline: Inline
  ) -> Started? {
    guard !dispatch.isClosed else { return nil }
    guard dispatch.runnerID(key) == nil, let job = dispatch.popQueue(key),
      let registration = dispatch.handlers[job.event.kind]
    else { return nil }
    let id = dispatch.nextID()
    dispatch.activeWork += 1
    let started = Started(
      job: job, body: registration.body, emitter: makeEmitter(for: job.event), runner: id,
      line: key)
    let runsInline = Self.runsInline(
      registration.body, inline, cancellable: dispatch.cancellable.contains(job.event.kind))
    let runner = Runner(id: id, task: runsInline ? nil : Task { await self.run(from: started) })
    dispatch.setCurrent(Running(job: job, emitter: started.emitter, runner: id), key)
    dispatch.setRunner(runner, key)
    return runsInline ? started : nil
  }

  /// Whether a job with handler `body` may run in the caller that started it.
  /// `cancellable` is asked only for a suspending handler that `send` would run.
  @inlinable static func runsInline(
    _ body: Body, _ inline: Inline, cancellable: @autoclosure () -> Bool
  ) -> Bool {
    switch (inline, body) {
    case (.never, _): return false
    case (_, .sync): return true
    case (.any, .async): return !cancellable()
    case (.synchronous, .async): return false
    }
  }

  /// Starts `job` on the bloc's own line, idle and with nothing queued: for the caller to run
  /// when `inline`, else on a new runner task (returning nil). What
  /// ``startRunnerIfIdle(_:_:inline:)`` does after queueing it, without the queue.
  @inlinable final func startOnIdleLine(
    _ job: Job, _ body: Body, inline: Bool, _ dispatch: inout Dispatch
  ) -> Started? {
    let id = dispatch.nextID()
    dispatch.activeWork += 1
    let started = Started(
      job: job, body: body, emitter: makeEmitter(for: job.event), runner: id, line: nil)
    dispatch.main.current = Running(job: job, emitter: started.emitter, runner: id)
    dispatch.main.runner = Runner(
      id: id, task: inline ? nil : Task { await self.run(from: started) })
    return inline ? started : nil
  }

  /// A runner task: runs a line's jobs one after another until it is empty, the bloc closes,
  /// or a cancellation retires the runner.
  /// `@inlinable`: a runner started by inlined code (``finished(_:handingOver:)``) runs code
  /// specialised for the bloc's types too.
  @inlinable final func run(from first: Started) async {
    var next: Started? = first
    while let started = next {
      switch started.body {
      case .sync(let handler): execute(started.job, handler: handler, emitter: started.emitter)
      case .async(let handler):
        await execute(started.job, handler: handler, emitter: started.emitter)
      }
      next = finished(started, handingOver: false)
    }
  }

  /// After the inline job `started` ran in the caller: hands what queued up meanwhile to a
  /// runner task (the same unit of work), or frees the line.
  @inlinable final func finishedInline(_ started: Started) {
    _ = finished(started, handingOver: true)
  }

  /// Ends the job `started` and takes the next one of its line under the same lock (so neither
  /// `add` nor `settled()` sees a gap), or ends the runner. When `handingOver`, the next job goes
  /// to a new runner task instead of being returned.
  @inlinable final func finished(_ started: Started, handingOver: Bool) -> Started? {
    var waiters: [CheckedContinuation<Bool, Never>] = []
    let next = dispatch.withLock { dispatch -> Started? in
      let id = started.runner
      // The bloc's own line with nothing queued (the usual end of an inline job): in place,
      // with no helper generic over the line's key.
      if !started.ownLine {
        if dispatch.main.current?.runner == id { dispatch.main.current = nil }
        let owns = dispatch.main.runner?.id == id
        if !owns || dispatch.isClosed || dispatch.main.queue.isEmpty {
          if owns { dispatch.main.runner = nil }
          if !dispatch.retired.isEmpty { dispatch.retired[id] = nil }
          dispatch.activeWork -= 1
          if !dispatch.settleWaiters.isEmpty { waiters = dispatch.takeSettleWaiters() }
          return nil
        }
      }
      let key = started.line
      if dispatch.currentRunner(key) == id { dispatch.setCurrent(nil, key) }
      let owns = dispatch.runnerID(key) == id
      if owns, !dispatch.isClosed, let job = dispatch.popQueue(key),
        let registration = dispatch.handlers[job.event.kind]
      {
        let next = Started(
          job: job, body: registration.body, emitter: makeEmitter(for: job.event), runner: id,
          line: key)
        dispatch.setCurrent(Running(job: job, emitter: next.emitter, runner: id), key)
        if handingOver {
          dispatch.setRunner(Runner(id: id, task: Task { await self.run(from: next) }), key)
          return nil
        }
        return next
      }
      if owns { dispatch.setRunner(nil, key) }
      dispatch.retired[id] = nil
      dispatch.activeWork -= 1
      waiters = dispatch.takeSettleWaiters()
      return nil
    }
    for waiter in waiters { waiter.resume(returning: false) }
    return next
  }

  private func startConcurrent(_ job: Job, _ body: Body, _ dispatch: inout Dispatch) {
    dispatch.activeWork += 1
    let emitter = makeEmitter(for: job.event)
    let task = Task {
      switch body {
      case .sync(let handler): self.execute(job, handler: handler, emitter: emitter)
      case .async(let handler): await self.execute(job, handler: handler, emitter: emitter)
      }
      self.ended(uncounting: 1) { _ = $0.concurrent.removeValue(forKey: job.id) }
    }
    dispatch.concurrent[job.id] = (job.event.kind, task, emitter)
  }

  /// Starts a timer on the bloc's clock; when it fires, the kind's pending job is queued.
  private func arm(
    _ kind: Event.Kind, after interval: Duration, _ dispatch: inout Dispatch
  )
    -> UInt64
  {
    let id = dispatch.nextID()
    let (deadline, sleep) = Self.deadline(on: clock, after: interval)
    let task = Task {
      do { try await sleep() } catch { return }
      self.fire(kind, timer: id)
    }
    dispatch.timers[id] = Timer(task: task, deadline: deadline)
    return id
  }

  static func deadline<C: Clock>(
    on clock: C, after interval: Duration
  ) -> (
    Deadline, sleep: @Sendable () async throws -> Void
  ) where C.Duration == Duration {
    let deadline = clock.now.advanced(by: interval)
    return (
      Deadline(
        isDue: { clock.now >= deadline }, remaining: { clock.now.duration(to: deadline) }),
      { try await clock.sleep(until: deadline, tolerance: nil) }
    )
  }

  /// A debounce or throttle timer fired: its pending job joins the queue (cancelling earlier
  /// events of its kind: handling is restartable); a throttle opens its next window.
  private func fire(_ kind: Event.Kind, timer id: UInt64) {
    let (admission, waiters) = dispatch.withLock {
      dispatch -> (Admission, [CheckedContinuation<Bool, Never>]) in
      var admission = Admission()
      guard dispatch.timers.removeValue(forKey: id) != nil, var gate = dispatch.pacings[kind],
        gate.timer == id, let registration = dispatch.handlers[kind]
      else { return (admission, dispatch.takeSettleWaiters()) }
      gate.timer = nil
      if let job = gate.pending {
        gate.pending = nil
        if case .throttle(let interval) = registration.transformer.strategy {
          gate.timer = arm(kind, after: interval(), &dispatch)
        }
        dispatch.pacings[kind] = gate
        cancel(kind, in: &dispatch, &admission, keepingPending: true)
        dispatch.main.queue.push(job)
        _ = startRunnerIfIdle(nil, &dispatch, inline: .never)
      } else {
        gate.windowOpen = false
        dispatch.pacings[kind] = gate
      }
      return (admission, dispatch.takeSettleWaiters())
    }
    for (job, outcome) in admission.concluded { conclude(job.event, job.receipt, outcome) }
    for waiter in waiters { waiter.resume(returning: false) }
  }

  /// Tidies up under the lock and uncounts `count` units of work.
  @discardableResult
  func ended<T: Sendable>(uncounting count: Int, _ tidy: @Sendable (inout Dispatch) -> T) -> T {
    let (result, waiters) = dispatch.withLock { dispatch in
      let result = tidy(&dispatch)
      dispatch.activeWork -= count
      return (result, dispatch.takeSettleWaiters())
    }
    for waiter in waiters { waiter.resume(returning: false) }
    return result
  }

  /// Called once per wait for storage when it ends.
  func workEnded() { ended(uncounting: 1) { _ in } }
}

extension Bloc.Dispatch {
  /// Takes a line out for changing (put it back with ``put(_:_:)``), so that pushing onto its
  /// queue does not copy the queue.
  mutating func take(_ key: Event.Kind?) -> Bloc.Line {
    guard let key else {
      defer { main = Bloc.Line() }
      return main
    }
    return lines.removeValue(forKey: key) ?? Bloc.Line()
  }

  mutating func put(_ line: Bloc.Line, _ key: Event.Kind?) {
    if let key { lines[key] = line } else { main = line }
  }

  // In-place access to a line's parts: the bloc's own line (nil) or an independent kind's.

  @inlinable func currentRunner(_ key: Event.Kind?) -> UInt64? {
    guard let key else { return main.current?.runner }
    return lines[key]?.current?.runner
  }

  @inlinable func runnerID(_ key: Event.Kind?) -> UInt64? {
    guard let key else { return main.runner?.id }
    return lines[key]?.runner?.id
  }

  @inlinable mutating func popQueue(_ key: Event.Kind?) -> Bloc.Job? {
    guard let key else { return main.queue.pop() }
    return lines[key]?.queue.pop()
  }

  @inlinable mutating func setCurrent(_ running: Bloc.Running?, _ key: Event.Kind?) {
    guard let key else {
      main.current = running
      return
    }
    lines[key]?.current = running
  }

  @inlinable mutating func setRunner(_ runner: Runner?, _ key: Event.Kind?) {
    guard let key else {
      main.runner = runner
      return
    }
    lines[key]?.runner = runner
  }

  /// The line of `kind`'s events: its own for an `.independent` kind, else the bloc's (nil).
  func lineKey(of kind: Event.Kind) -> Event.Kind? {
    guard let registration = handlers[kind], case .independent = registration.transformer.strategy
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

/// Who runs a line while it is busy: a caller inline (`add` or `send`, no task), or a task.
/// Outside the generic `Bloc` so that the hot path needs no metadata lookup for it.
@usableFromInline struct Runner {
  @usableFromInline let id: UInt64
  @usableFromInline var task: Task<Void, Never>?

  @usableFromInline init(id: UInt64, task: Task<Void, Never>?) {
    self.id = id
    self.task = task
  }
}

/// How `admit` may run a job it starts: never in the caller (timers), a synchronous handler in
/// the caller (`add`), or any handler that nothing can cancel (`send`).
@usableFromInline enum Inline {
  case never, synchronous, any
}
