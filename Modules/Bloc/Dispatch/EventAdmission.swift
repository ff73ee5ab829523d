/// How an added event enters the bloc's order (see EventDispatch.swift): refused, held, started
/// at once on an idle bloc, queued behind a busy one, or handed to its transformer (dropped,
/// debounced, throttled, cancelling others). Runs under the bloc's `dispatch` lock.
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
  final func admit(
    _ event: Event, inline: Inline, fromHold: Bool = false, announced: Bool = false
  ) -> (EventReceipt?, Started?) {
    if !fromHold, !announced { onEvent(event) }
    var receipt: EventReceipt?
    var admission: Admission?
    var flushHeld = false
    let started = withDispatch { dispatch -> Started? in
      // The registration's parts are read in its box, not copied out of it: a copy of its set
      // of kinds goes through that set's runtime metadata.
      guard !dispatch.isClosed, let handling = handling(of: event.kind, &dispatch) else {
        receipt = EventReceipt()
        admission = Admission(refused: true)
        return nil
      }
      if dispatch.held != nil, !fromHold {
        // `send` wants its outcome now: it joins the held events, and they all go, in order.
        flushHeld = inline == .any
        if !flushHeld || !dispatch.held!.isEmpty {
          let held = EventReceipt()
          receipt = held
          dispatch.held!.append(
            makeJob(dispatch.nextID(), event, held, handling.registration.body))
          return nil
        }
        flushHeld = false
      }
      let idle = dispatch.main.runner == nil && dispatch.main.queue.isEmpty
      var runsInline = false
      if idle {
        switch (inline, handling.registration.body) {
        case (.never, _), (.synchronous, .async): runsInline = false
        case (_, .sync): runsInline = true
        case (.any, .async):
          runsInline =
            dispatch.cancellable.isEmpty || !dispatch.cancellable.contains(event.kind)
        }
      }
      if handling.registration.startsWhenIdle, runsInline {
        if isPersisted { receipt = EventReceipt() }
        let job = makeJob(dispatch.nextID(), event, receipt, handling.registration.body)
        return startOnIdleLane(job, inline: true, &dispatch)
      }
      let queued = EventReceipt()
      receipt = queued
      let job = makeJob(dispatch.nextID(), event, queued, handling.registration.body)
      if handling.registration.startsWhenIdle, idle {
        // Not to run inline: a runner task takes it.
        return startOnIdleLane(job, inline: false, &dispatch)
      }
      if handling.registration.queuesWhenBusy, dispatch.main.runner != nil {
        // What the transformer does with a sequential event while the bloc is busy.
        dispatch.main.queue.push(job)
        return nil
      }
      let decided = admit(job, handling.registration, into: &dispatch, inline: inline)
      admission = decided
      return decided.inline
    }
    if let admission, let receipt { settle(admission, of: event, receipt) }
    if flushHeld { admitHeld(keepHolding: true) }
    return (receipt, started)
  }

  /// Concludes the jobs `admit` dropped or cancelled, and reports a refused event.
  private func settle(_ admission: Admission, of event: Event, _ receipt: EventReceipt) {
    for (job, outcome) in admission.concluded {
      conclude(Self.emitter(of: job).event, job.receipt, outcome)
    }
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
  private func admit(
    _ job: Job, _ registration: Registration, into dispatch: inout DispatchState, inline: Inline
  ) -> Admission {
    var admission = Admission()
    let kind = Self.emitter(of: job).event.kind
    for target in registration.cancels { cancel(target, in: &dispatch, &admission) }
    var lane: Event.Kind?
    switch registration.transformer.strategy {
    case .concurrent:
      startConcurrent(job, &dispatch)
      return admission
    case .sequential:
      dispatch.main.queue.push(job)
    case .independent:
      lane = kind
      dispatch.lanes[kind, default: Lane()].queue.push(job)
    case .droppable:
      if dispatch.main.current.map({ Self.kind(of: $0) == kind }) ?? false
        || dispatch.main.queue.contains(where: { Self.emitter(of: $0).event.kind == kind })
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
    if let current = lane.current, Self.kind(of: current) == kind {
      Self.emitter(of: current).cancel()
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
    if lane.queue.contains(where: { Self.emitter(of: $0).event.kind == kind }) {
      for job in lane.queue.removeAll(where: { Self.emitter(of: $0).event.kind == kind }) {
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

  /// The kind of the event `running` runs. Unchecked, as `emitter(of:)` for a job: a lane
  /// runs only this bloc's jobs.
  private static func kind(of running: Running) -> Event.Kind {
    unsafeDowncast(running.emitter, to: JobEmitter<Event, State>.self).event.kind
  }
}
