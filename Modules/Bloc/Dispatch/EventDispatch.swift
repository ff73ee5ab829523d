import Synchronization

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
  /// Refuses the event, or hands it to its transformer; returns a job the caller must run. The
  /// receipt is nil only for a job to run inline whose outcome is final once it ran (an
  /// unpersisted bloc): the caller then hands out a shared resolved receipt, no allocation.
  ///
  /// An in-order event on an idle bloc starts here under one lock, with nothing queued, and a
  /// sequential one on a busy bloc joins the queue here; every other case goes through the
  /// transformer (``admit(_:_:into:inline:)``).
  ///
  /// While a test harness holds the bloc's events (``holdEvents()``), an added event waits,
  /// announced but not admitted; `fromHold` admits one released from there. `announced`: the
  /// caller already called ``onEvent(_:)``.
  @inlinable final func admit(
    _ event: Event, inline: Inline, fromHold: Bool = false, announced: Bool = false
  ) -> (EventReceipt?, Started?) {
    if !fromHold, !announced { onEvent(event) }
    var receipt: EventReceipt?
    var admission: Admission?
    var flushHeld = false
    let started = withDispatch { dispatch -> Started? in
      guard !dispatch.isClosed, let registration = dispatch.registration(for: event.kind) else {
        receipt = EventReceipt()
        var refused = Admission()
        refused.refused = true
        admission = refused
        return nil
      }
      if dispatch.held != nil, !fromHold {
        // `send` wants its outcome now: it joins the held events, and they all go, in order.
        flushHeld = inline == .any
        if !flushHeld || !dispatch.held!.isEmpty {
          let held = EventReceipt()
          receipt = held
          dispatch.held!.append(Job(id: dispatch.nextID(), event: event, receipt: held))
          return nil
        }
        flushHeld = false
      }
      let idle = dispatch.main.runner == nil && dispatch.main.queue.isEmpty
      let runsInline =
        idle
        && Self.runsInline(
          registration.body, inline, cancellable: dispatch.cancellable.contains(event.kind))
      if registration.startsWhenIdle, runsInline {
        if isPersisted { receipt = EventReceipt() }
        let job = Job(id: dispatch.nextID(), event: event, receipt: receipt)
        return startOnIdleLane(job, registration.body, inline: true, &dispatch)
      }
      let queued = EventReceipt()
      receipt = queued
      let job = Job(id: dispatch.nextID(), event: event, receipt: queued)
      if registration.startsWhenIdle, idle {
        // Not to run inline: a runner task takes it, started from here so that it runs code
        // specialised for this bloc's types.
        return startOnIdleLane(job, registration.body, inline: false, &dispatch)
      }
      if registration.queuesWhenBusy, dispatch.main.runner != nil {
        // What the transformer does with a sequential event while the bloc is busy.
        dispatch.main.queue.push(job)
        return nil
      }
      let decided = admit(job, registration, into: &dispatch, inline: inline)
      admission = decided
      return decided.inline
    }
    if let admission, let receipt { settle(admission, of: event, receipt) }
    if flushHeld { admitHeld(keepHolding: true) }
    return (receipt, started)
  }

  /// What `add` needs to run an event's synchronous handler on the bloc's order, which it
  /// claimed while idle (``claimIdleLane(for:)``): a few words, so that handing it out of the
  /// lock copies no job. The receipt is nil for an unpersisted bloc (the outcome is final on
  /// return). A tuple: inlined code reaches its parts with no annotated names.
  @usableFromInline typealias IdleClaim = (
    handler: SyncHandler, emitter: Emitter<State>, runner: UInt64, receipt: EventReceipt?
  )

  /// Claims the bloc's order for `event`, when `add` runs it in the caller: the bloc is idle
  /// and open, nothing is held, and the event's handler is synchronous and in order
  /// (sequential or droppable, cancelling nothing). What ``admit(_:inline:fromHold:announced:)``
  /// does in that case, in one trip to the lock, without a job or a `Started` record to copy.
  @inlinable final func claimIdleLane(for event: Event) -> IdleClaim? {
    withDispatch { dispatch -> IdleClaim? in
      guard !dispatch.isClosed, dispatch.held == nil, dispatch.main.runner == nil,
        dispatch.main.queue.isEmpty, let registration = dispatch.registration(for: event.kind),
        registration.startsWhenIdle, case .sync(let handler) = registration.body
      else { return nil }
      let receipt = isPersisted ? EventReceipt() : nil
      let id = dispatch.nextID()
      dispatch.activeWork += 1
      let emitter = makeEmitter(for: event)
      dispatch.main.current = Running(
        job: Job(id: id, event: event, receipt: receipt), emitter: emitter, runner: id)
      dispatch.main.runner = Runner(id: id, task: nil)
      return (handler: handler, emitter: emitter, runner: id, receipt: receipt)
    }
  }

  /// Runs the event `claim` was made for and concludes it, as a started job that ran inline
  /// is (``execute(_:handler:emitter:)``, then ``finishedInline(_:)``); returns the handler's
  /// outcome (final unless the claim's receipt waits for storage).
  @inlinable final func runClaimed(_ event: Event, _ claim: IdleClaim) -> EventOutcome {
    let outcome = outcome(of: event, handler: claim.handler, emitter: claim.emitter)
    claim.emitter.finish()
    let changed = claim.emitter.highestSequence
    if changed > 0, isPersisted {
      concludeWhenStored(
        Job(id: claim.runner, event: event, receipt: claim.receipt), changed, outcome)
    } else {
      conclude(event, claim.receipt, outcome)
    }
    _ = finished(runner: claim.runner, lane: nil, handingOver: true)
    return outcome
  }

  /// Concludes the jobs `admit` dropped or cancelled, and reports a refused event.
  @usableFromInline func settle(_ admission: Admission, of event: Event, _ receipt: EventReceipt) {
    for (job, outcome) in admission.concluded { conclude(job.event, job.receipt, outcome) }
    if admission.refused {
      // Described outside the lock: `isClosed` is never reset, so a bloc that is not closed now
      // was not when refused.
      let description = String(describing: event)
      let refusal: BlocError =
        isClosed
        ? .addAfterClose(bloc: name, event: description)
        : .unhandledEvent(bloc: name, event: description)
      reportError(refusal)
      conclude(event, receipt, .failed(refusal))
    }
  }

  /// Decides what happens to a newly added job according to its handler's transformer.
  @usableFromInline func admit(
    _ job: Job, _ registration: Registration, into dispatch: inout DispatchState, inline: Inline
  ) -> Admission {
    var admission = Admission()
    let kind = job.event.kind
    for target in registration.cancels { cancel(target, in: &dispatch, &admission) }
    var lane: Event.Kind?
    switch registration.transformer.strategy {
    case .concurrent:
      startConcurrent(job, registration.body, &dispatch)
      return admission
    case .sequential:
      dispatch.main.queue.push(job)
    case .independent:
      lane = kind
      dispatch.lanes[kind, default: Lane()].queue.push(job)
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
    admission.inline = startRunnerIfIdle(lane, &dispatch, inline: inline)
    return admission
  }

  /// Cancels every earlier event of `kind`: the running one (its emitter closes at once and its
  /// lane moves on), queued ones, one waiting on a debounce or throttle timer, concurrent ones.
  func cancel(
    _ kind: Event.Kind, in dispatch: inout DispatchState, _ admission: inout Admission,
    keepingPending: Bool = false
  ) {
    let key = dispatch.laneKey(of: kind)
    var lane = dispatch.take(key)
    if let current = lane.current, current.job.event.kind == kind {
      current.emitter.cancel()
      if let runner = lane.runner {
        if let task = runner.task {
          task.cancel()
          dispatch.retired[runner.id] = task
        }
        // A retired runner (or inline caller) still counts as work until it ends.
        lane.runner = nil
      }
      lane.current = nil
    }
    if lane.queue.contains(where: { $0.event.kind == kind }) {
      for job in lane.queue.removeAll(where: { $0.event.kind == kind }) {
        admission.concluded.append((job, .cancelled))
      }
    }
    dispatch.put(lane, key)
    // Its lane may have lost its runner: start another for the jobs left, if any.
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
      entry.emitter.cancel()
      entry.task.cancel()
    }
  }

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
    _ = finished(started, handingOver: true)
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

  private func startConcurrent(_ job: Job, _ body: Body, _ dispatch: inout DispatchState) {
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
