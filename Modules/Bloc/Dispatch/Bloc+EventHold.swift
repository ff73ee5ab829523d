/// How a test harness makes a bloc's first events wait (BlocTest's `blocTest` holds the events
/// added while `build` runs, and releases them once `seed` is applied, as bloc_test does).
@_spi(Testing) public protocol EventHolding: AnyObject {
  /// From now on, `add`ed events wait, in order, announced (`onEvent`) but not handled. A
  /// `send` handles every waiting event and then its own, in order, at once: its caller wants
  /// the outcome now.
  func holdEvents()
  /// Handles the waiting events in order, as `add` would have, and stops holding. Their
  /// receipts resolve with the outcomes.
  func releaseHeldEvents()
}

@_spi(Testing) extension Bloc: EventHolding {
  public func holdEvents() {
    withDispatch { dispatch in
      if dispatch.held == nil, !dispatch.isClosed { dispatch.held = [] }
    }
  }

  public func releaseHeldEvents() { admitHeld(keepHolding: false) }
}

extension Bloc {
  /// Admits the held events in order; `keepHolding` holds the events added from now on again.
  func admitHeld(keepHolding: Bool) {
    let jobs = withDispatch { dispatch -> [Job] in
      let jobs = dispatch.held ?? []
      if dispatch.held != nil { dispatch.held = keepHolding ? [] : nil }
      return jobs
    }
    for job in jobs {
      let receipt = addQueued(Self.emitter(of: job).event, fromHold: true)
      guard let held = job.receipt else { continue }
      receipt.onResolve { held.resolve($0) }
    }
  }
}
