/// An event handled straight through, for a host that stores changes and answers on its own
/// schedule: the daemon handles a request's event on its loop thread, and replies once the
/// turn's journal write has stored the change (``BlocBase/storeStatus(of:)``).
extension Bloc {
  /// Handles `event` now, in the caller, when that is what ``add(_:)`` would do (the bloc is
  /// idle, the handler synchronous, nothing holds its events) and nobody needs to hear of the
  /// outcome later: no observer wants ``BlocHooks/done`` (a server's monitor does), and the
  /// bloc is a plain `Bloc`, not a subclass that may override the hooks. Otherwise it does
  /// nothing (not even ``onEvent(_:)``) and returns nil: then `add` the event.
  ///
  /// Returns the handler's outcome and, for a persisted bloc, the sequence number of the last
  /// change it made (0 when none). No receipt is made and nothing waits for storage: a change
  /// is final once ``BlocBase/storeStatus(of:)`` says it is stored, and when its write fails
  /// the event failed with that error, as ``add(_:)``'s receipt would have said.
  ///
  /// It may run unspecialised (the daemon calls it from a closure made in generic code); the
  /// usual case (a reducer, no observer) names no type generic over the bloc's
  /// (``BlocBase/applyQuietly(_:_:)``), so it costs no runtime generic metadata lookup either
  /// way.
  package final func handleInline(_ event: Event) -> (outcome: EventOutcome, changed: UInt64)? {
    guard isPlain else { return nil }
    // Usually none: then not even the hooks' sets are looked up (global constants).
    let hooks = observedHooks
    guard hooks.isEmpty || !hooks.contains(.done) else { return nil }
    // The usual case, a bloc whose events all go to its reducer: no dispatch lock.
    if let reduce = claimFreeLane() {
      defer { endFreeClaim() }
      return reduceInline(event, reduce, hooks)
    }
    return handleInlineLocked(event, hooks)
  }

  /// ``handleInline(_:)`` when the order is not free to claim without the lock: a section
  /// under it decides. Apart, so that the usual case's frame has none of its records (each a
  /// type generic over the bloc's, whose metadata unspecialised code looks up).
  @inline(never)
  private func handleInlineLocked(
    _ event: Event, _ hooks: BlocHooks
  ) -> (outcome: EventOutcome, changed: UInt64)? {
    var reducer: (@Sendable (State, Event) throws -> State)?
    var runner: UInt64 = 0
    var general = false
    withDispatch { dispatch in
      guard !dispatch.isClosed, dispatch.held == nil, dispatch.main.runner == nil,
        dispatch.main.queue.isEmpty, let registration = dispatch.registration(for: event.kind),
        registration.startsWhenIdle, case .sync = registration.body
      else { return }
      // The reducer, when nothing can cancel the event while it runs: the lane is claimed
      // for the caller, with no job or emitter.
      if let reduce = registration.reduce,
        dispatch.cancellable.isEmpty || !dispatch.cancellable.contains(event.kind)
      {
        reducer = reduce
        runner = dispatch.nextID()
        dispatch.activeWork += 1
        dispatch.main.runner = Runner(id: runner, task: nil)
        return
      }
      general = true
    }
    if let reducer {
      defer { endInlineRunner(runner) }
      return reduceInline(event, reducer, hooks)
    }
    return general ? handleSyncInline(event) : nil
  }

  /// ``handleInline(_:)`` for a synchronous handler of its own (not the reducer), run with
  /// an emitter as `add` runs it; nil when the bloc is no longer idle.
  private func handleSyncInline(
    _ event: Event
  ) -> (outcome: EventOutcome, changed: UInt64)? {
    var handler: SyncHandler?
    let started = withDispatch { dispatch -> Started? in
      guard !dispatch.isClosed, dispatch.held == nil, dispatch.main.runner == nil,
        dispatch.main.queue.isEmpty, let registration = dispatch.registration(for: event.kind),
        registration.startsWhenIdle, case .sync(let found) = registration.body
      else { return nil }
      handler = found
      let job = makeJob(dispatch.nextID(), event, nil, registration.body)
      return startOnIdleLane(job, inline: true, &dispatch)
    }
    guard let started, let handler else { return nil }
    let emitter = Self.emitter(of: started.job)
    onEvent(event)
    let outcome = outcome(of: event, handler: handler, emitter: emitter)
    emitter.finish()
    let changed = isPersisted ? emitter.highestSequence : 0
    // Concluded now unless a change waits for storage; then no observer is told (none wants
    // to be), and the caller learns the rest from storeStatus.
    if changed == 0 { onDone(event, outcome: outcome) }
    finishedInline(started)
    return (outcome, changed)
  }

  /// Runs the reducer for `event` on the order the caller claimed (and ends the claim after):
  /// what the reducer's handler does through an emitter (``Emitter/update(_:)``), applied
  /// directly. A reducer that throws fails the event and changes nothing; a bloc closed
  /// meanwhile cancels it, as `close()` cancels a running handler.
  ///
  /// The bloc is a plain `Bloc` (its hooks are not overridden) and no observer wants
  /// ``BlocHooks/done``: of the hooks, only those that `hooks` (the ones observers want) has
  /// are called, the others would do nothing.
  private func reduceInline(
    _ event: Event, _ reduce: (State, Event) throws -> State, _ hooks: BlocHooks
  ) -> (outcome: EventOutcome, changed: UInt64) {
    // Nobody to tell of the event or its change (an observer of errors is told below): a
    // quiet change, unless someone watches the bloc after all.
    if hooks.isDisjoint(with: [.event, .transition, .change]) {
      do {
        switch try applyQuietly(event, reduce) {
        case .changed(let sequence): return (.handled, isPersisted ? sequence : 0)
        case .unchanged: return (.handled, 0)
        case .declined: break
        }
      } catch {
        reportError(HandlerFailure(event: event, error: error))
        return (.failed(error), 0)
      }
    }
    let observed = !hooks.isEmpty
    if observed, hooks.contains(.event) { onEvent(event) }
    var failure: (any Error)?
    var outcome = EventOutcome.handled
    var changed: UInt64 = 0
    let transitions = observed && hooks.contains(.transition)
    do {
      let sequence = try apply(
        reportingClose: false, cause: { .event(event) },
        announce: { change in
          guard transitions else { return }
          self.onTransition(Transition(current: change.current, event: event, next: change.next))
        }, tellsChange: observed && hooks.contains(.change)
      ) { current in
        do {
          return try reduce(current, event)
        } catch {
          failure = error
          return current
        }
      }
      if isPersisted, let sequence { changed = sequence }
    } catch {
      outcome = .cancelled
    }
    if let failure {
      reportError(HandlerFailure(event: event, error: failure))
      outcome = .failed(failure)
    }
    return (outcome, changed)
  }
}
