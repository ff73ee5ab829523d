import Synchronization

/// How a bloc's state changes: every change (an emit, a reducer, undo and redo) goes through
/// `apply`, one trip to the state's lock, then tells taps, hooks, listeners and subscribers.
extension BlocBase {
  /// Applies `next` if it differs from the current state. Returns the new sequence number, or
  /// nil when equal. After close, reports and throws ``BlocError/emitAfterClose(bloc:)``.
  @inlinable @discardableResult
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
  @inlinable @discardableResult
  final func apply(
    recordHistory: Bool = true, reportingClose: Bool = true,
    cause: () -> ChangeCause = { .emit },
    announce: (Change<State>) -> Void = { _ in }, _ compute: (State) throws -> State
  ) throws -> UInt64? {
    let attempt = try core.withLock { core -> Attempt in
      if core.isClosed { return .closed }
      let next = try compute(core.state)
      guard next != core.state else { return .unchanged }
      let change = Change(current: core.state, next: next)
      if recordHistory, core.history != nil { core.history!.record(core.state) }
      core.state = next
      core.sequence &+= 1
      // Handed to the persister under the lock, so changes reach it in order (the storage's
      // history has every change), in one trip to its lock.
      var stage = false
      if let persister {
        stage =
          keepsEveryChange
          ? persister.recordAndClaim(next, sequence: core.sequence, cause: cause(), owner: self)
          : persister.claim(next, sequence: core.sequence, owner: self)
      }
      publishedSequence.store(core.sequence, ordering: .relaxed)
      return .applied(
        Applied(
          change: change, sequence: core.sequence, woken: takeWaiters(&core, for: next),
          taps: core.taps, listeners: core.listeners, stage: stage))
    }
    let applied: Applied
    switch attempt {
    case .unchanged: return nil
    case .closed:
      throw reportingClose ? refuseEmitAfterClose() : BlocError.emitAfterClose(bloc: name)
    case .applied(let done): applied = done
    }
    let change = applied.change
    let sequence = applied.sequence
    if applied.stage { persister?.stageWithSink() }
    if !applied.taps.isEmpty { tell(applied.taps, change) }
    announce(change)
    onChange(change)
    if applied.listeners.isEmpty, applied.woken.isEmpty { return sequence }
    let update = StateUpdate(sequence: sequence, state: change.next)
    // A persisted bloc's listeners hear of a state once it is stored (BlocBase+Persistence).
    if !isPersisted { for listener in applied.listeners { listener.deliver(update) } }
    applied.woken.resume(returning: update)
    return sequence
  }

  /// Reports an emit after close and returns the error to throw.
  @usableFromInline func refuseEmitAfterClose() -> BlocError {
    let error = BlocError.emitAfterClose(bloc: name)
    reportError(error)
    return error
  }

  /// Shows a change to the test taps.
  @usableFromInline func tell(_ taps: [TapEntry], _ change: Change<State>) {
    for entry in taps { entry.tap(.change(change)) }
  }

  @usableFromInline enum Attempt {
    case closed, unchanged
    case applied(Applied)
  }

  @usableFromInline struct Applied {
    @usableFromInline let change: Change<State>
    @usableFromInline let sequence: UInt64
    @usableFromInline let woken: Woken
    @usableFromInline let taps: [TapEntry]
    @usableFromInline let listeners: [Listener<State>]
    /// The persister must stage itself with its sink (``Persister/stageWithSink()``).
    @usableFromInline let stage: Bool

    @inlinable init(
      change: Change<State>, sequence: UInt64, woken: Woken, taps: [TapEntry],
      listeners: [Listener<State>], stage: Bool = false
    ) {
      self.stage = stage
      self.change = change
      self.sequence = sequence
      self.woken = woken
      self.taps = taps
      self.listeners = listeners
    }
  }
}
