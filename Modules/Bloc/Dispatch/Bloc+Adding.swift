/// Adding events: `add` (answered by a receipt) and `send` (awaits the outcome); the
/// bookkeeping behind them is in EventAdmission.swift, IdleClaim.swift and EventDispatch.swift.
extension Bloc {
  /// Adds an event. Await the receipt's ``EventReceipt/outcome`` to know when it is done
  /// (including, for a persisted bloc, when its changes are stored); or ignore it.
  ///
  /// A synchronous handler (one that never awaits) on an idle bloc runs before `add` returns.
  @discardableResult
  public final func add(_ event: Event) -> EventReceipt {
    onEvent(event)
    // The usual case, a synchronous handler on an idle bloc: claimed and run here.
    if let claim = claimIdleLane(for: event) {
      let outcome = runClaimed(event, claim)
      return claim.receipt ?? .resolved(outcome)
    }
    return addQueued(event, fromHold: false)
  }

  /// ``add(_:)`` when the bloc is busy, the handler may suspend or has a transformer of its
  /// own, or (`fromHold`) the admission of an event a test harness held: the event is
  /// admitted (EventAdmission.swift), and run here when it may be.
  final func addQueued(_ event: Event, fromHold: Bool) -> EventReceipt {
    let (receipt, inline) = admit(event, inline: .synchronous, fromHold: fromHold, announced: true)
    if let inline, case .sync(let handler) = Self.emitter(of: inline.job).body {
      let outcome = execute(inline.job, handler: handler)
      finishedInline(inline)
      return receipt ?? .resolved(outcome)
    }
    guard let receipt else { preconditionFailure("a job not run inline has a receipt") }
    return receipt
  }

  /// Adds an event and waits for its outcome.
  ///
  /// ```swift
  /// if case .failed(let error) = await bloc.send(.increment) { print(error) }
  /// ```
  /// When the bloc is idle, the handler runs in the caller's task (no task spawned, no thread
  /// hop), unless something can cancel it (restartable, paced, or named in a `cancels:`).
  @discardableResult
  public final func send(_ event: Event) async -> EventOutcome {
    onEvent(event)
    // A synchronous handler on an idle bloc, as in `add`: claimed and run here.
    if let claim = claimIdleLane(for: event) {
      let outcome = runClaimed(event, claim)
      guard let receipt = claim.receipt else { return outcome }
      return await receipt.outcome
    }
    return await sendQueued(event)
  }

  /// ``send(_:)`` when the bloc is busy, the handler may suspend or has a transformer of its
  /// own: the event is admitted, and run in the caller's task when nothing can cancel it.
  private func sendQueued(_ event: Event) async -> EventOutcome {
    let (receipt, inline) = admit(event, inline: .any, announced: true)
    var outcome: EventOutcome?
    if let inline {
      outcome = await execute(inline.job)
      finishedInline(inline)
    }
    if let receipt { return await receipt.outcome }
    guard let outcome else { preconditionFailure("a job not run inline has a receipt") }
    return outcome
  }
}
