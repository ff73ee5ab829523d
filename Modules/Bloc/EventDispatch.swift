/// The bookkeeping behind `add`: which handlers run, which events wait, which timers are armed.
/// Everything here runs under the bloc's `dispatch` lock.
extension Bloc {
  struct Job: Sendable {
    let id: UInt64
    let event: Event
    let receipt: EventReceipt
  }

  struct Registration {
    let handler: Handler
    let transformer: EventTransformer
  }

  struct Lane {
    var busy = false
    var queue = FIFO<Job>()
    var current: (id: UInt64, task: Task<Void, Never>, emitter: Emitter<State>)?
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

  struct Dispatch {
    var handlers: [Event.Kind: Registration] = [:]
    var lanes: [Event.Kind: Lane] = [:]
    var tasks: [UInt64: (task: Task<Void, Never>, emitter: Emitter<State>?)] = [:]
    /// The emitter of the job each sequential runner is handling, so close() can finish it.
    var runnerEmitters: [UInt64: Emitter<State>] = [:]
    var timers: [UInt64: Timer] = [:]
    /// Handlers sleeping on the clock, by id.
    var sleepers: [UInt64: Deadline] = [:]
    /// Units of work started and not yet ended: a concurrent, droppable or restartable job, a
    /// sequential runner (however many jobs it has taken), a wait for storage. Queued jobs are
    /// not counted, so a runner asleep on the clock is exactly one sleeper.
    var activeWork = 0
    var settleWaiters: [CheckedContinuation<Bool, Never>] = []
    var isClosed = false
    var lastID: UInt64 = 0

    mutating func nextID() -> UInt64 {
      lastID &+= 1
      return lastID
    }

    /// Idle when every started job is asleep until a deadline still ahead and no timer is due:
    /// nothing can happen until the clock moves.
    var isIdle: Bool {
      let waitingForTime = sleepers.values.filter { !$0.isDue() }.count
      return activeWork == waitingForTime && !timers.values.contains { $0.deadline.isDue() }
    }

    /// Closes the dispatch: returns the tasks to await and the jobs that will never run.
    mutating func shutDown() -> ([Task<Void, Never>], [Job]) {
      isClosed = true
      var abandoned: [Job] = []
      for (kind, var lane) in lanes {
        abandoned += lane.queue.drain()
        if let pending = lane.pending { abandoned.append(pending) }
        lane.pending = nil
        lanes[kind] = lane
      }
      for timer in timers.values { timer.task.cancel() }
      timers = [:]
      for entry in tasks.values {
        entry.emitter?.finish()
        entry.task.cancel()
      }
      for emitter in runnerEmitters.values { emitter.finish() }
      handlers = [:]
      return (tasks.values.map(\.task), abandoned)
    }
  }

  /// Decides what happens to a newly added job according to its handler's transformer. Returns
  /// the job the transformer dropped, if any (the new one, or the one it replaced), for the
  /// caller to conclude once the lock is released, since concluding runs hooks.
  func admit(_ job: Job, _ registration: Registration, into dispatch: inout Dispatch) -> Job? {
    var dropped: Job?
    let kind = job.event.kind
    // Taken out of the dictionary so that pushing onto its queue does not copy the queue.
    var lane = dispatch.lanes.removeValue(forKey: kind) ?? Lane()
    switch registration.transformer.strategy {
    case .concurrent:
      dispatch.activeWork += 1
      startConcurrent(job, registration.handler, &dispatch)
    case .sequential:
      if lane.busy {
        lane.queue.push(job)
      } else {
        lane.busy = true
        dispatch.activeWork += 1
        startSequential(job, kind, registration.handler, &dispatch)
      }
    case .droppable:
      if lane.busy {
        dropped = job
      } else {
        lane.busy = true
        dispatch.activeWork += 1
        startDroppable(job, kind, registration.handler, &dispatch)
      }
    case .restartable:
      dispatch.activeWork += 1
      restart(job, &lane, registration.handler, &dispatch)
    case .debounce(let interval):
      dropped = lane.pending
      lane.pending = job
      if let timer = lane.timer { dispatch.timers.removeValue(forKey: timer)?.task.cancel() }
      lane.timer = arm(kind, after: interval(), &dispatch)
    case .throttle(let interval):
      if lane.windowOpen {
        dropped = lane.pending
        lane.pending = job
      } else {
        lane.windowOpen = true
        dispatch.activeWork += 1
        restart(job, &lane, registration.handler, &dispatch)
        lane.timer = arm(kind, after: interval(), &dispatch)
      }
    }
    dispatch.lanes[kind] = lane
    return dropped
  }

  private func startConcurrent(_ job: Job, _ handler: @escaping Handler, _ dispatch: inout Dispatch)
  {
    let emitter = makeEmitter(for: job.event)
    let task = Task {
      await self.execute(job, handler: handler, emitter: emitter)
      self.ended(uncounting: 1) { _ = $0.tasks.removeValue(forKey: job.id) }
    }
    dispatch.tasks[job.id] = (task, emitter)
  }

  private func startDroppable(
    _ job: Job, _ kind: Event.Kind, _ handler: @escaping Handler, _ dispatch: inout Dispatch
  ) {
    let emitter = makeEmitter(for: job.event)
    let task = Task {
      await self.execute(job, handler: handler, emitter: emitter)
      self.ended(uncounting: 1) { dispatch in
        dispatch.tasks.removeValue(forKey: job.id)
        dispatch.lanes[kind]?.busy = false
      }
    }
    dispatch.tasks[job.id] = (task, emitter)
  }

  /// Marks the event's lane busy if it is sequential and idle, for `send`'s fast path.
  func claimIdleSequentialLane(for event: Event) -> (Job, Handler, Emitter<State>)? {
    let emitter = makeEmitter(for: event)
    let claimed = dispatch.withLock { dispatch -> (Job, Handler, Emitter<State>)? in
      guard !dispatch.isClosed, let registration = dispatch.handlers[event.kind],
        case .sequential = registration.transformer.strategy,
        dispatch.lanes[event.kind]?.busy != true
      else { return nil }
      dispatch.lanes[event.kind, default: Lane()].busy = true
      dispatch.activeWork += 1
      let job = Job(id: dispatch.nextID(), event: event, receipt: EventReceipt())
      dispatch.runnerEmitters[job.id] = emitter
      return (job, registration.handler, emitter)
    }
    return claimed
  }

  /// After the fast path: runs what queued up meanwhile on a runner task, or frees the lane.
  func handOverSequentialLane(of kind: Event.Kind, job: UInt64) {
    ended(uncounting: 1) { dispatch in
      dispatch.runnerEmitters[job] = nil
      guard !dispatch.isClosed, let next = dispatch.lanes[kind]?.queue.pop(),
        let handler = dispatch.handlers[kind]?.handler
      else {
        dispatch.lanes[kind]?.busy = false
        return
      }
      dispatch.activeWork += 1
      startSequential(next, kind, handler, &dispatch)
    }
  }

  /// One task per busy period runs the lane's jobs in order, counted as one unit of work. It
  /// takes every queued job at once (one lock per batch rather than per job), so `add` and the
  /// runner rarely contend.
  private func startSequential(
    _ first: Job, _ kind: Event.Kind, _ handler: @escaping Handler, _ dispatch: inout Dispatch
  ) {
    let runnerID = dispatch.nextID()
    let task = Task {
      var batch = [first]
      while !batch.isEmpty {
        for job in batch {
          // Registered so that close() finishes it: its later emits are then dropped and
          // reported, as with every other transformer.
          let emitter = self.makeEmitter(for: job.event)
          let closed = self.dispatch.withLock { dispatch -> Bool in
            if dispatch.isClosed { return true }
            dispatch.runnerEmitters[runnerID] = emitter
            return false
          }
          if closed || Task.isCancelled {
            self.conclude(job.event, job.receipt, .cancelled)
            continue
          }
          await self.execute(job, handler: handler, emitter: emitter)
        }
        // The runner stays counted across batches; when the queue is empty it ends under the
        // same lock that frees the lane, so neither settled() nor add sees a gap.
        let (next, waiters) = self.dispatch.withLock {
          dispatch -> ([Job], [CheckedContinuation<Bool, Never>]) in
          dispatch.runnerEmitters[runnerID] = nil
          if !dispatch.isClosed, dispatch.lanes[kind]?.queue.isEmpty == false {
            return (dispatch.lanes[kind]?.queue.drain() ?? [], [])
          }
          dispatch.lanes[kind]?.busy = false
          dispatch.tasks.removeValue(forKey: runnerID)
          dispatch.activeWork -= 1
          return ([], dispatch.takeSettleWaiters())
        }
        for waiter in waiters { waiter.resume(returning: false) }
        batch = next
      }
    }
    dispatch.tasks[runnerID] = (task, nil)
  }

  /// Cancels the lane's running handler, if any, and starts `job`.
  private func restart(
    _ job: Job, _ lane: inout Lane, _ handler: @escaping Handler, _ dispatch: inout Dispatch
  ) {
    if let current = lane.current {
      current.emitter.finish()
      current.task.cancel()
    }
    let kind = job.event.kind
    let emitter = makeEmitter(for: job.event)
    let task = Task {
      await self.execute(job, handler: handler, emitter: emitter)
      self.ended(uncounting: 1) { dispatch in
        dispatch.tasks.removeValue(forKey: job.id)
        if dispatch.lanes[kind]?.current?.id == job.id { dispatch.lanes[kind]?.current = nil }
      }
    }
    lane.current = (job.id, task, emitter)
    dispatch.tasks[job.id] = (task, emitter)
  }

  /// Starts a timer on the bloc's clock; when it fires, the lane's pending job runs.
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

  private func fire(_ kind: Event.Kind, timer id: UInt64) {
    let waiters = dispatch.withLock { dispatch -> [CheckedContinuation<Bool, Never>] in
      guard dispatch.timers.removeValue(forKey: id) != nil, dispatch.lanes[kind]?.timer == id,
        var lane = dispatch.lanes.removeValue(forKey: kind),
        let registration = dispatch.handlers[kind]
      else { return dispatch.takeSettleWaiters() }
      lane.timer = nil
      if let job = lane.pending {
        lane.pending = nil
        dispatch.activeWork += 1
        restart(job, &lane, registration.handler, &dispatch)
        if case .throttle(let interval) = registration.transformer.strategy {
          lane.timer = arm(kind, after: interval(), &dispatch)
        }
      } else {
        lane.windowOpen = false
      }
      dispatch.lanes[kind] = lane
      return dispatch.takeSettleWaiters()
    }
    for waiter in waiters { waiter.resume(returning: false) }
  }

  /// Called once per job when its outcome is known.
  func workEnded() { ended(uncounting: 1) { _ in } }

  /// Tidies up after handlers under the lock and uncounts `count` finished jobs.
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
}

extension Bloc.Dispatch {
  /// Settle waiters re-check on wake, so waking them on any progress is enough.
  mutating func takeSettleWaiters() -> [CheckedContinuation<Bool, Never>] {
    let waiters = settleWaiters
    settleWaiters = []
    return waiters
  }
}
