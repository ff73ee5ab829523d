import Synchronization

/// The bookkeeping behind `add`: which handler runs, which events wait, which timers are armed;
/// here, the runners that take the queued events (how an event is admitted: EventAdmission.swift;
/// `add`'s claim of an idle bloc: IdleClaim.swift; timers: EventDispatch+Timers.swift).
/// Everything here runs under the bloc's `dispatch` lock.
///
/// Order: every event that is not `.concurrent` joins one queue per bloc, in the order it is
/// admitted (a debounced or throttled event when its timer lets it through), and one runner at
/// a time takes them from it, so an event never starts before an earlier one of the same bloc
/// has finished. A cancelled handler counts as finished: its emitter is closed at once, and the
/// queue moves on while it winds down.
///
/// None of it touches a type nested in the generic `Bloc` whose layout depends on the bloc's
/// types (Job.swift), so that, where it runs unspecialised (a generic caller), it needs no
/// runtime generic metadata lookup per event.
extension Bloc {
  /// When no runner owns the lane and a job waits, takes it: for the caller to run inline when
  /// `inline` allows, else on a new runner task. The bloc's own lane (nil) is changed in
  /// place, an independent kind's through the dictionary.
  func startRunnerIfIdle(
    _ key: Event.Kind?, _ dispatch: inout DispatchState, inline: Inline
  ) -> Started? {
    guard let key else { return startMainRunnerIfIdle(&dispatch, inline: inline) }
    guard !dispatch.isClosed, dispatch.lanes[key]?.runner == nil,
      let job = dispatch.lanes[key]?.queue.pop()
    else { return nil }
    let id = dispatch.nextID()
    dispatch.activeWork += 1
    let started = Started(job: job, runner: id, ownLane: true)
    let runsInline = runsInline(job, inline, &dispatch)
    dispatch.lanes[key]?.current = Running(emitter: job.emitter, runner: id)
    dispatch.lanes[key]?.runner = Runner(
      id: id, task: runsInline ? nil : Task { await self.run(from: started) })
    return runsInline ? started : nil
  }

  /// ``startRunnerIfIdle(_:_:inline:)`` for the bloc's own lane.
  private func startMainRunnerIfIdle(_ dispatch: inout DispatchState, inline: Inline) -> Started? {
    guard !dispatch.isClosed, dispatch.main.runner == nil, let job = dispatch.main.queue.pop()
    else { return nil }
    return startOnIdleLane(job, inline: runsInline(job, inline, &dispatch), &dispatch)
  }

  /// Whether `job` may run in the caller that starts it, as `inline` allows.
  private func runsInline(_ job: Job, _ inline: Inline, _ dispatch: inout DispatchState) -> Bool {
    let emitter = Self.emitter(of: job)
    return Self.runsInline(
      emitter.body, inline,
      cancellable: !dispatch.cancellable.isEmpty
        && dispatch.cancellable.contains(emitter.event.kind))
  }

  /// Whether a job with handler `body` may run in the caller that started it.
  /// `cancellable` is asked only for a suspending handler that `send` would run.
  private static func runsInline(
    _ body: Body, _ inline: Inline, cancellable: @autoclosure () -> Bool
  ) -> Bool {
    switch (inline, body) {
    case (.never, _): return false
    case (_, .sync): return true
    case (.any, .async): return !cancellable()
    case (.synchronous, .async): return false
    }
  }

  /// Starts `job` on the bloc's own lane, idle and with nothing queued: for the caller to run
  /// when `inline`, else on a new runner task (returning nil). What
  /// ``startRunnerIfIdle(_:_:inline:)`` does after queueing it, without the queue.
  final func startOnIdleLane(
    _ job: Job, inline: Bool, _ dispatch: inout DispatchState
  ) -> Started? {
    let id = dispatch.nextID()
    dispatch.activeWork += 1
    let started = Started(job: job, runner: id, ownLane: false)
    dispatch.main.current = Running(emitter: job.emitter, runner: id)
    dispatch.main.runner = Runner(
      id: id, task: inline ? nil : Task { await self.run(from: started) })
    return inline ? started : nil
  }

  /// A runner task: runs a lane's jobs one after another until it is empty, the bloc closes,
  /// or a cancellation retires the runner.
  private func run(from first: Started) async {
    var next: Started? = first
    while let started = next {
      await execute(started.job)
      next = finished(started, handingOver: false)
    }
  }

  /// After the inline job `started` ran in the caller: hands what queued up meanwhile to a
  /// runner task (the same unit of work), or frees the lane.
  final func finishedInline(_ started: Started) {
    if !started.ownLane {
      endInlineRunner(started.runner)
    } else {
      _ = finished(started, handingOver: true)
    }
  }

  /// ``finishedInline(_:)`` for runner `id` of the bloc's own lane, the usual end of a job run
  /// in the caller: one section that hands nothing out when nothing queued meanwhile, else
  /// ``finishedOnMain(runner:handingOver:)`` hands the queue over.
  final func endInlineRunner(_ id: UInt64) {
    var waiters: [CheckedContinuation<Bool, Never>] = []
    let ended = withDispatch { dispatch -> Bool in
      // A claimant of the free order ending through the lock: the records decide again.
      if id == LaneGate.claimant { laneGate.store(.locked, ordering: .relaxed) }
      if dispatch.main.current?.runner == id { dispatch.main.current = nil }
      let owns = dispatch.main.runner?.id == id
      guard !owns || dispatch.isClosed || dispatch.main.queue.isEmpty else { return false }
      if owns { dispatch.main.runner = nil }
      if !dispatch.retired.isEmpty { dispatch.retired[id] = nil }
      dispatch.activeWork -= 1
      if !dispatch.settleWaiters.isEmpty { waiters = dispatch.takeSettleWaiters() }
      return true
    }
    for waiter in waiters { waiter.resume(returning: false) }
    // Still this lane's runner, with events queued: counted as work, so nothing else starts.
    if !ended { handOverMain(runner: id) }
  }

  /// Hands the bloc's queue, which filled while runner `id` ran a job in the caller, to a
  /// runner task.
  private func handOverMain(runner id: UInt64) {
    _ = finishedOnMain(runner: id, handingOver: true)
  }

  /// Ends the job `started` and takes the next one of its lane under the same lock (so neither
  /// `add` nor `settled()` sees a gap), or ends the runner. When `handingOver`, the next job goes
  /// to a new runner task instead of being returned.
  private func finished(_ started: Started, handingOver: Bool) -> Started? {
    guard started.ownLane else {
      return finishedOnMain(runner: started.runner, handingOver: handingOver)
    }
    let kind = Self.emitter(of: started.job).event.kind
    return finished(runner: started.runner, lane: kind, handingOver: handingOver)
  }

  /// ``finished(_:handingOver:)`` for the job of runner `id` on the bloc's own lane.
  private func finishedOnMain(runner id: UInt64, handingOver: Bool) -> Started? {
    var waiters: [CheckedContinuation<Bool, Never>] = []
    let next = withDispatch { dispatch -> Started? in
      // A claimant of the free order ending through the lock: the records decide again.
      if id == LaneGate.claimant { laneGate.store(.locked, ordering: .relaxed) }
      if dispatch.main.current?.runner == id { dispatch.main.current = nil }
      let owns = dispatch.main.runner?.id == id
      if owns, !dispatch.isClosed, let job = dispatch.main.queue.pop() {
        // The same unit of work goes on, under an id of its own if it was the gate's claimant.
        let id = id == LaneGate.claimant ? dispatch.nextID() : id
        let next = Started(job: job, runner: id, ownLane: false)
        dispatch.main.current = Running(emitter: job.emitter, runner: id)
        if handingOver {
          dispatch.main.runner = Runner(id: id, task: Task { await self.run(from: next) })
          return nil
        }
        return next
      }
      if owns { dispatch.main.runner = nil }
      if !dispatch.retired.isEmpty { dispatch.retired[id] = nil }
      dispatch.activeWork -= 1
      if !dispatch.settleWaiters.isEmpty { waiters = dispatch.takeSettleWaiters() }
      return nil
    }
    for waiter in waiters { waiter.resume(returning: false) }
    return next
  }

  /// ``finished(_:handingOver:)`` for the job of runner `id` on `lane`, an independent kind's.
  private func finished(runner id: UInt64, lane key: Event.Kind, handingOver: Bool) -> Started? {
    var waiters: [CheckedContinuation<Bool, Never>] = []
    let next = withDispatch { dispatch -> Started? in
      if dispatch.lanes[key]?.current?.runner == id { dispatch.lanes[key]?.current = nil }
      let owns = dispatch.lanes[key]?.runner?.id == id
      if owns, !dispatch.isClosed, let job = dispatch.lanes[key]?.queue.pop() {
        let next = Started(job: job, runner: id, ownLane: true)
        dispatch.lanes[key]?.current = Running(emitter: job.emitter, runner: id)
        if handingOver {
          dispatch.lanes[key]?.runner = Runner(id: id, task: Task { await self.run(from: next) })
          return nil
        }
        return next
      }
      if owns { dispatch.lanes[key]?.runner = nil }
      dispatch.retired[id] = nil
      dispatch.activeWork -= 1
      waiters = dispatch.takeSettleWaiters()
      return nil
    }
    for waiter in waiters { waiter.resume(returning: false) }
    return next
  }

  func startConcurrent(_ job: Job, _ dispatch: inout DispatchState) {
    dispatch.activeWork += 1
    let emitter = Self.emitter(of: job)
    let task = Task {
      await self.execute(job)
      self.ended(uncounting: 1) { _ = $0.concurrent.removeValue(forKey: job.id) }
    }
    dispatch.concurrent[job.id] = (emitter.event.kind, task, emitter)
  }

  /// Tidies up under the lock and uncounts `count` units of work.
  @discardableResult
  private func ended<T: Sendable>(
    uncounting count: Int, _ tidy: @Sendable (inout DispatchState) -> T
  ) -> T {
    let (result, waiters) = withDispatch { dispatch in
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
