/// Running handlers and concluding their events (the ordering logic lives in
/// EventDispatch.swift).
extension Bloc {
  /// Runs a job's handler and concludes it, or, when its changes must be stored first, arranges
  /// for it to be concluded then (counted as separate work), so the queue moves on meanwhile.
  /// Returns the handler's outcome (final unless it waits for storage).
  @discardableResult
  final func execute(_ job: Job) async -> EventOutcome {
    let emitter = Self.emitter(of: job)
    let handler: Handler
    switch emitter.body {
    case .sync(let synchronous): return execute(job, handler: synchronous)
    case .async(let asynchronous): handler = asynchronous
    }
    var outcome: EventOutcome
    do {
      try await handler(emitter.event, emitter)
      outcome = emitter.isActive && !Task.isCancelled ? .handled : .cancelled
      try checkLoops(of: job, emitter, outcome)
    } catch is CancellationError where Task.isCancelled || !emitter.isActive {
      outcome = .cancelled
    } catch {
      outcome = .failed(error)
      reportError(HandlerFailure(event: emitter.event, error: error))
    }
    conclude(job, emitter, outcome)
    return outcome
  }

  /// Runs a synchronous handler and concludes its job like ``execute(_:)``.
  @discardableResult
  final func execute(_ job: Job, handler: SyncHandler) -> EventOutcome {
    let emitter = Self.emitter(of: job)
    let outcome = outcome(of: emitter.event, handler: handler, emitter: emitter)
    conclude(job, emitter, outcome)
    return outcome
  }

  /// ``outcome(of:handler:emitter:)`` for an event with no job.
  final func outcome(
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
  private func checkLoops(
    of job: Job, _ emitter: JobEmitter<Event, State>, _ outcome: EventOutcome
  ) throws {
    if emitter.isLooping, outcome.isHandled {
      throw BlocError.forEachNotAwaited(bloc: name, event: String(describing: emitter.event))
    }
  }

  private func conclude(
    _ job: Job, _ emitter: JobEmitter<Event, State>, _ outcome: EventOutcome
  ) {
    emitter.finish()
    let changed = emitter.highestSequence
    guard changed > 0, isPersisted else {
      conclude(emitter.event, job.receipt, outcome)
      return
    }
    concludeWhenStored(emitter.event, job.receipt, changed, outcome)
  }

  /// Concludes `event` (answering `receipt`) once the change of sequence `changed` is stored.
  final func concludeWhenStored(
    _ event: Event, _ receipt: EventReceipt?, _ changed: UInt64, _ outcome: EventOutcome
  ) {
    guard let persister else { return conclude(event, receipt, outcome) }
    // The wait for storage counts as its own unit of work, taken before the runner ends, so
    // settled() never sees zero while the wait is on.
    withDispatch { $0.activeWork += 1 }
    persister.whenStored(changed) { [outcome] error in
      var final = outcome
      if let error, outcome.isHandled { final = .failed(error) }
      self.conclude(event, receipt, final)
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

  /// The emitter of `event`, to be handled by `body`.
  final func makeEmitter(for event: Event, body: Body) -> JobEmitter<Event, State> {
    JobEmitter(bloc: self, event: event, body: body) { bloc, event, change in
      bloc.onTransition(Transition(current: change.current, event: event, next: change.next))
    }
  }

  /// A job for `event`, numbered `id`, with its emitter.
  final func makeJob(
    _ id: UInt64, _ event: Event, _ receipt: EventReceipt?, _ body: Body
  ) -> Job {
    Job(id: id, receipt: receipt, emitter: makeEmitter(for: event, body: body))
  }

  /// The emitter `job` was made with (``makeJob(_:_:_:_:)``), which holds its event.
  static func emitter(of job: Job) -> JobEmitter<Event, State> {
    // Unchecked: only makeJob makes this bloc's jobs; `as!` cost 200 instructions per queued event.
    unsafeDowncast(job.emitter, to: JobEmitter<Event, State>.self)
  }

  /// The emitter of the job `running` runs. Checked: only a cancellation or `close()` asks.
  static func emitter(of running: Running) -> Emitter<State> {
    running.emitter as! Emitter<State>
  }

  final func conclude(_ event: Event, _ receipt: EventReceipt?, _ outcome: EventOutcome) {
    onDone(event, outcome: outcome)
    receipt?.resolve(outcome)
  }
}
