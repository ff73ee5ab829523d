/// Waiting for a change to be stored, asking where it stands, and giving changes up after a
/// failed write.
extension PersisterCore {
  /// Waits until `sequence` (or a later one) is stored; returns the error if that write failed.
  final func waitUntilStored(_ sequence: UInt64) async -> PersistenceError? {
    await withCheckedContinuation { continuation in
      whenStored(sequence) { continuation.resume(returning: $0) }
    }
  }

  /// Calls `body` once `sequence` (or a later one) is stored, with the error if its write
  /// failed: at once if that is known, else from the writer. No task is needed.
  final func whenStored(
    _ sequence: UInt64, _ body: @escaping @Sendable (PersistenceError?) -> Void
  ) {
    let ready: PersistenceError?? = withProgress { progress in
      if let failure = progress.failure(of: sequence) { return .some(failure) }
      if progress.durable >= sequence { return .some(nil) }
      if !progress.writing, progress.pending == 0 { return .some(progress.lastError) }
      progress.waiters.append(StoreWaiter(sequence: sequence, notify: body))
      return nil
    }
    if let ready { body(ready) }
  }

  /// What ``whenStored(_:_:)`` would call back with now, without waiting: `sequence` (or a
  /// later change) stored, its write failed, or still on its way.
  final func status(of sequence: UInt64) -> StoreStatus {
    withProgress { $0.status(of: sequence) }
  }

  /// Gives up every change up to `sequence` after a failed write: the pending state (built on
  /// the failed one) is dropped and their waiters fail with `error`. Called by the bloc, under
  /// its lock (which guards the progress), while it restores the last stored state.
  final func abandon(through sequence: UInt64, _ error: PersistenceError) -> [StoreWaiter] {
    guard sequence > progress.abandonedThrough else { return [] }
    if progress.pending != 0, progress.pending <= sequence { progress.pending = 0 }
    // The backlog is in order: what goes is a prefix.
    var end = 0
    while end < progress.backlog.count, progress.backlog[end].sequence <= sequence { end += 1 }
    if end > 0 {
      progress.backlog.removeSubrange(0..<end)
      dropStates(backlog: end)
    }
    let first = max(progress.durable, progress.abandonedThrough) + 1
    if first <= sequence {
      // Consecutive failed writes with nothing stored between them share one range.
      if let last = progress.failedWrites.last,
        last.sequences.upperBound == progress.abandonedThrough,
        last.sequences.lowerBound > progress.durable
      {
        progress.failedWrites[progress.failedWrites.count - 1] = FailedWrite(
          sequences: last.sequences.lowerBound...sequence, error: error)
      } else {
        progress.failedWrites.append(FailedWrite(sequences: first...sequence, error: error))
        if progress.failedWrites.count > 256 { progress.failedWrites.removeFirst() }
      }
    }
    progress.abandonedThrough = sequence
    return progress.takeWaiters(through: sequence)
  }
}

/// Someone waiting until `sequence` is stored.
struct StoreWaiter: Sendable {
  let sequence: UInt64
  let notify: @Sendable (PersistenceError?) -> Void
}
