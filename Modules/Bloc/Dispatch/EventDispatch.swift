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
/// The path of an in-order event on an idle bloc (admit, run inline, finish) is `@inlinable`,
/// with the types it touches `@usableFromInline`: a client module compiles it specialised for
/// its own event and state types, with no runtime generic metadata lookup per event.
extension Bloc {
  /// When no runner owns the lane and a job waits, takes it: for the caller to run inline when
  /// `inline` allows, else on a new runner task. The bloc's own lane is changed in place (this
  /// is the hot path), an independent kind's through the dictionary.
  func startRunnerIfIdle(
    _ key: Event.Kind?, _ dispatch: inout DispatchState, inline: Inline
  ) -> Started? {
    guard !dispatch.isClosed else { return nil }
    guard dispatch.runnerID(key) == nil, let job = dispatch.popQueue(key),
      let registration = dispatch.registration(for: job.event.kind)
    else { return nil }
    let id = dispatch.nextID()
    dispatch.activeWork += 1
    let started = Started(
      job: job, body: registration.body, emitter: makeEmitter(for: job.event), runner: id,
      lane: key)
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

  /// Starts `job` on the bloc's own lane, idle and with nothing queued: for the caller to run
  /// when `inline`, else on a new runner task (returning nil). What
  /// ``startRunnerIfIdle(_:_:inline:)`` does after queueing it, without the queue.
  @inlinable final func startOnIdleLane(
    _ job: Job, _ body: Body, inline: Bool, _ dispatch: inout DispatchState
  ) -> Started? {
    let id = dispatch.nextID()
    dispatch.activeWork += 1
    let started = Started(
      job: job, body: body, emitter: makeEmitter(for: job.event), runner: id, lane: nil)
    dispatch.main.current = Running(job: job, emitter: started.emitter, runner: id)
    dispatch.main.runner = Runner(
      id: id, task: inline ? nil : Task { await self.run(from: started) })
    return inline ? started : nil
  }

  /// A runner task: runs a lane's jobs one after another until it is empty, the bloc closes,
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
  /// runner task (the same unit of work), or frees the lane.
  @inlinable final func finishedInline(_ started: Started) {
    if !started.ownLane {
      endInlineRunner(started.runner)
    } else {
      _ = finished(started, handingOver: true)
    }
  }

  /// ``finishedInline(_:)`` for runner `id` of the bloc's own lane, the usual end of a job run
  /// in the caller: one section that hands nothing out when nothing queued meanwhile (the
  /// `Started?` that ``finished(runner:lane:handingOver:)`` returns was destroyed through its
  /// value witnesses), else ``finished(runner:lane:handingOver:)`` hands the queue over.
  @inlinable final func endInlineRunner(_ id: UInt64) {
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
    if !ended { _ = finished(runner: id, lane: nil, handingOver: true) }
  }

  /// Ends the job `started` and takes the next one of its lane under the same lock (so neither
  /// `add` nor `settled()` sees a gap), or ends the runner. When `handingOver`, the next job goes
  /// to a new runner task instead of being returned.
  @inlinable final func finished(_ started: Started, handingOver: Bool) -> Started? {
    finished(runner: started.runner, lane: started.lane, handingOver: handingOver)
  }

  /// ``finished(_:handingOver:)`` for the job of runner `id` on `lane` (nil: the bloc's own).
  @inlinable final func finished(
    runner id: UInt64, lane: Event.Kind?, handingOver: Bool
  ) -> Started? {
    var waiters: [CheckedContinuation<Bool, Never>] = []
    let next = withDispatch { dispatch -> Started? in
      // A claimant of the free order ending through the lock: the records decide again.
      if id == LaneGate.claimant { laneGate.store(.locked, ordering: .relaxed) }
      // The bloc's own lane with nothing queued (the usual end of an inline job): in place,
      // with no helper generic over the lane's key.
      if lane == nil {
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
      let key = lane
      if dispatch.currentRunner(key) == id { dispatch.setCurrent(nil, key) }
      let owns = dispatch.runnerID(key) == id
      if owns, !dispatch.isClosed, let job = dispatch.popQueue(key),
        let registration = dispatch.registration(for: job.event.kind)
      {
        // The same unit of work goes on, under an id of its own if it was the gate's claimant.
        let id = id == LaneGate.claimant ? dispatch.nextID() : id
        let next = Started(
          job: job, body: registration.body, emitter: makeEmitter(for: job.event), runner: id,
          lane: key)
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

  func startConcurrent(_ job: Job, _ body: Body, _ dispatch: inout DispatchState) {
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

  /// Tidies up under the lock and uncounts `count` units of work. Inlinable, so that the end
  /// of a wait for storage (``workEnded()``) is specialised.
  @inlinable @discardableResult
  func ended<T: Sendable>(
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
  @inlinable func workEnded() { ended(uncounting: 1) { _ in } }
}
