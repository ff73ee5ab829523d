/// Adding events: `add` (answered by a receipt) and `send` (awaits the outcome); the
/// bookkeeping behind them is in EventAdmission.swift, IdleClaim.swift and EventDispatch.swift.
extension Bloc {
  /// Adds an event. Await the receipt's ``EventReceipt/outcome`` to know when it is done
  /// (including, for a persisted bloc, when its changes are stored); or ignore it.
  ///
  /// A synchronous handler (one that never awaits) on an idle bloc runs before `add` returns.
  @inlinable @discardableResult
  public final func add(_ event: Event) -> EventReceipt { add(event, fromHold: false) }

  /// ``add(_:)``, or (`fromHold`) the admission of an event a test harness held.
  @inlinable final func add(_ event: Event, fromHold: Bool) -> EventReceipt {
    if !fromHold {
      onEvent(event)
      // The usual case, a synchronous handler on an idle bloc: claimed and run here.
      if let claim = claimIdleLane(for: event) {
        let outcome = runClaimed(event, claim)
        return claim.receipt ?? .resolved(outcome)
      }
    }
    let (receipt, inline) = admit(event, inline: .synchronous, fromHold: fromHold, announced: true)
    if let inline, case .sync(let handler) = inline.body {
      let outcome = execute(inline.job, handler: handler, emitter: inline.emitter)
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
  @inlinable @discardableResult
  public final func send(_ event: Event) async -> EventOutcome {
    onEvent(event)
    // A synchronous handler on an idle bloc, as in `add`: claimed and run here.
    if let claim = claimIdleLane(for: event) {
      let outcome = runClaimed(event, claim)
      guard let receipt = claim.receipt else { return outcome }
      return await receipt.outcome
    }
    let (receipt, inline) = admit(event, inline: .any, announced: true)
    var outcome: EventOutcome?
    if let inline {
      switch inline.body {
      case .sync(let handler):
        outcome = execute(inline.job, handler: handler, emitter: inline.emitter)
      case .async(let handler):
        outcome = await execute(inline.job, handler: handler, emitter: inline.emitter)
      }
      finishedInline(inline)
    }
    if let receipt { return await receipt.outcome }
    guard let outcome else { preconditionFailure("a job not run inline has a receipt") }
    return outcome
  }
}
