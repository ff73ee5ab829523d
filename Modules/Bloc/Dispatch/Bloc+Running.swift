/// Running handlers and concluding their events (the ordering logic lives in
/// EventDispatch.swift).
extension Bloc {
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
