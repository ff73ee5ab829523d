/// `add` and `send` on an idle bloc with a synchronous handler (the usual case): the bloc's
/// order claimed in one trip to the dispatch lock, the handler run in the caller, the claim
/// ended as an inline runner's (EventDispatch.swift).
extension Bloc {
  /// What `add` needs to run an event's synchronous handler on the bloc's order, which it
  /// claimed while idle (``claimIdleLane(for:)``): a few words, so that handing it out of the
  /// lock copies no job. The receipt is nil for an unpersisted bloc (the outcome is final on
  /// return).
  typealias IdleClaim = (
    handler: SyncHandler, emitter: Emitter<State>, runner: UInt64, receipt: EventReceipt?
  )

  /// Claims the bloc's order for `event`, when `add` runs it in the caller: the bloc is idle
  /// and open, nothing is held, and the event's handler is synchronous and in order
  /// (sequential or droppable, cancelling nothing). What ``admit(_:inline:fromHold:announced:)``
  /// does in that case, in one trip to the lock, without a job or a `Started` record to copy.
  final func claimIdleLane(for event: Event) -> IdleClaim? {
    withDispatch { dispatch -> IdleClaim? in
      guard !dispatch.isClosed, dispatch.held == nil, dispatch.main.runner == nil,
        dispatch.main.queue.isEmpty
      else { return nil }
      let handler: SyncHandler
      if let last = dispatch.idleStart, last.kind == event.kind {
        handler = last.handler
      } else {
        guard let registration = dispatch.registration(for: event.kind),
          registration.startsWhenIdle, case .sync(let found) = registration.body
        else { return nil }
        dispatch.idleStart = IdleStart(kind: event.kind, handler: found)
        handler = found
      }
      let receipt = isPersisted ? EventReceipt() : nil
      let id = dispatch.nextID()
      dispatch.activeWork += 1
      let emitter = makeEmitter(for: event, body: .sync(handler))
      dispatch.main.current = Running(emitter: emitter, runner: id)
      dispatch.main.runner = Runner(id: id, task: nil)
      return (handler: handler, emitter: emitter, runner: id, receipt: receipt)
    }
  }

  /// Runs the event `claim` was made for and concludes it, as a started job that ran inline
  /// is (``execute(_:handler:emitter:)``, then ``finishedInline(_:)``); returns the handler's
  /// outcome (final unless the claim's receipt waits for storage).
  final func runClaimed(_ event: Event, _ claim: IdleClaim) -> EventOutcome {
    let outcome = outcome(of: event, handler: claim.handler, emitter: claim.emitter)
    claim.emitter.finish()
    let changed = claim.emitter.highestSequence
    if changed > 0, isPersisted {
      concludeWhenStored(event, claim.receipt, changed, outcome)
    } else {
      conclude(event, claim.receipt, outcome)
    }
    endInlineRunner(claim.runner)
    return outcome
  }
}
