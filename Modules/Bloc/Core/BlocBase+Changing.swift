import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a bloc's state changes: every change (an emit, a reducer, undo and redo) goes through
/// `apply`, one trip to the state's lock, then tells taps, hooks, listeners and subscribers.
extension BlocBase {
  /// Applies `next` if it differs from the current state. Returns the new sequence number, or
  /// nil when equal. After close, reports and throws ``BlocError/emitAfterClose(bloc:)``.
  @discardableResult
  final func apply(
    _ next: State, recordHistory: Bool = true, cause: () -> ChangeCause = { .emit },
    announce: (Change<State>) -> Void = { _ in }
  ) throws -> UInt64? {
    try apply(recordHistory: recordHistory, cause: cause, announce: announce) { _ in next }
  }

  /// Applies the state `compute` derives from the current one, read and replaced under the
  /// state's lock so no other change comes between (`compute` must not touch this bloc).
  ///
  /// One lock round-trip; no array is built for hooks, listeners or subscribers that nobody
  /// registered (the common case: an unobserved, unpersisted bloc with no waiting subscriber).
  ///
  /// After close it throws ``BlocError/emitAfterClose(bloc:)``, reported too unless
  /// `reportingClose` is false (an emitter's handler that close cancelled: silent).
  ///
  /// `cause` is asked only when the storage keeps every change (``keepsEveryChange``).
  /// `tellsChange` false skips ``onChange(_:)``: for a caller that knows the hook is not
  /// overridden and that no observer wants it (``Bloc/handleInline(_:)``).
  @discardableResult
  final func apply(
    recordHistory: Bool = true, reportingClose: Bool = true,
    cause: () -> ChangeCause = { .emit },
    announce: (Change<State>) -> Void = { _ in }, tellsChange: Bool = true,
    _ compute: (State) throws -> State
  ) throws -> UInt64? {
    // What the section hands out, as plain locals it fills: a record of them (an enum with a
    // struct payload) was copied and destroyed through its type's value witnesses, with
    // runtime metadata, even in code specialised for the bloc's types.
    var change: Change<State>?
    var closed = false
    var stage = false
    var woken = Woken()
    var taps: [TapEntry] = []
    var listeners: [Listener<State>] = []
    let sequence = try core.withLock { core -> UInt64 in
      if core.isClosed {
        closed = true
        return 0
      }
      let next = try compute(core.state)
      guard next != core.state else { return 0 }
      change = Change(current: core.state, next: next)
      if recordHistory, let history { history.record(core.state) }
      core.state = next
      core.sequence &+= 1
      // Handed to the persister under the lock, so changes reach it in order (the storage's
      // history has every change); this lock guards the persister's progress too.
      if let persister {
        stage =
          keepsEveryChange
          ? persister.recordAndClaim(next, sequence: core.sequence, cause: cause(), owner: self)
          : persister.claim(next, sequence: core.sequence, owner: self)
      }
      published.sequence.store(core.sequence, ordering: .relaxed)
      if !core.waiters.isEmpty { woken = takeWaiters(&core, for: next) }
      if !core.taps.isEmpty { taps = core.taps }
      if !core.listeners.isEmpty { listeners = core.listeners }
      return core.sequence
    }
    guard let change else {
      if closed {
        throw reportingClose ? refuseEmitAfterClose() : BlocError.emitAfterClose(bloc: name)
      }
      return nil
    }
    if stage { persister?.stageWithSink() }
    if !taps.isEmpty { tell(taps, change) }
    announce(change)
    if tellsChange { onChange(change) }
    if listeners.isEmpty, woken.isEmpty { return sequence }
    let update = StateUpdate(sequence: sequence, state: change.next)
    // A persisted bloc's listeners hear of a state once it is stored (BlocBase+Persistence).
    if !isPersisted { for listener in listeners { listener.deliver(update) } }
    woken.resume(returning: update)
    return sequence
  }

  /// ``apply(recordHistory:reportingClose:cause:announce:tellsChange:_:)`` for a change that
  /// `event` makes through `reduce`, which nobody is told of: for a caller that knows the
  /// hooks (``onChange(_:)``, a transition) are not overridden and that no observer wants them
  /// (``Bloc/handleInline(_:)``). It gives up, before `reduce` runs, when someone else watches
  /// the bloc's changes (a test tap, a listener, a waiting subscriber:
  /// ``StoredSlot/isWatched``) or the bloc is closed: then ask `apply`, which tells them, or
  /// reports the close. An error `reduce` throws is rethrown, with nothing changed.
  ///
  /// Runs unspecialised (no caller is inlined) without a runtime generic metadata lookup: it
  /// reaches the core through ``StoredSlot``'s addresses, the history and the persister
  /// through classes whose code touches `State` only through its own metadata, and names no
  /// type generic over `State` (no `Change`, no optional or array of one).
  final func applyQuietly<Event: Sendable>(
    _ event: Event, _ reduce: (State, Event) throws -> State
  ) throws -> QuietChange {
    pthread_mutex_lock(slot.mutex)
    if slot.isClosed.pointee || slot.isWatched {
      pthread_mutex_unlock(slot.mutex)
      return .declined
    }
    // `Core.state`'s address: bound to `State`, as a field of the core's bound memory.
    let current = slot.current.assumingMemoryBound(to: State.self)
    let next: State
    do {
      next = try reduce(current.pointee, event)
    } catch {
      pthread_mutex_unlock(slot.mutex)
      throw error
    }
    // `==` itself, the protocol's requirement: `!=` is a generic function around it.
    guard !(next == current.pointee) else {
      pthread_mutex_unlock(slot.mutex)
      return .unchanged
    }
    history?.record(current)
    let sequence = slot.currentSequence.pointee &+ 1
    slot.currentSequence.pointee = sequence
    // Handed to the persister under the lock, as `apply` does.
    var stage = false
    if let persister {
      stage =
        keepsEveryChange
        ? persister.recordAndClaim(next, sequence: sequence, event: event, owner: self)
        : persister.claim(next, sequence: sequence, owner: self)
    }
    current.pointee = consume next
    published.sequence.store(sequence, ordering: .relaxed)
    pthread_mutex_unlock(slot.mutex)
    if stage { persister?.stageWithSink() }
    return .changed(sequence)
  }

  /// Reports an emit after close and returns the error to throw.
  private func refuseEmitAfterClose() -> BlocError {
    let error = BlocError.emitAfterClose(bloc: name)
    reportError(error)
    return error
  }

  /// Shows a change to the test taps.
  private func tell(_ taps: [TapEntry], _ change: Change<State>) {
    for entry in taps { entry.tap(.change(change)) }
  }
}

/// What ``BlocBase/applyQuietly(_:_:)`` did.
enum QuietChange {
  /// The state changed: its new sequence number.
  case changed(UInt64)
  /// The reducer gave the current state back.
  case unchanged
  /// Nothing done: the bloc is closed or watched (ask `apply`).
  case declined
}
