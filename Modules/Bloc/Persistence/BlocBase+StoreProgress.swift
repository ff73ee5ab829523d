/// Where a bloc's changes stand on their way to storage, read in one trip to the persister's
/// lock: the answer ``BlocBase/storeStatus(of:)`` would give for any change newer than the
/// last rollback, for a host with many changes to ask about at once (a daemon's loop turn
/// replies to all of one bloc's changes with one read). Plain numbers and flags: copied and
/// dropped for free (a failed write's error is the bloc's to tell).
package struct StoreProgress: Sendable {
  /// Changes up to this one are stored.
  let durable: UInt64
  /// Changes up to this one may have been given up by a rollback: only the persister can tell.
  let abandonedThrough: UInt64
  /// No write is staged, in flight or waiting: nothing newer is on its way.
  let settled: Bool
  /// The last write failed.
  let failed: Bool

  /// A bloc that persists nothing: every change counts as stored.
  package static let nothingPersisted = StoreProgress(
    durable: .max, abandonedThrough: 0, settled: true, failed: false)

  /// Changes up to this one are stored; nil for a bloc that persists nothing (it shows its
  /// current state as its stored one).
  package var storedThrough: UInt64? { durable == .max ? nil : durable }

  /// What ``BlocBase/storeStatus(of:)`` said of `sequence` when this was read, or nil when a
  /// rollback may have given it up or it failed (ask the bloc then).
  package func status(of sequence: UInt64) -> StoreStatus? {
    if sequence <= abandonedThrough { return nil }
    if durable >= sequence { return .stored }
    if settled { return failed ? nil : .stored }
    return .pending
  }
}

extension BlocBase {
  /// Where the bloc's changes stand on their way to storage (see ``StoreProgress``).
  package var storeProgress: StoreProgress {
    guard let persister else { return .nothingPersisted }
    return persister.progress.withLock { progress in
      StoreProgress(
        durable: progress.durable, abandonedThrough: progress.abandonedThrough,
        settled: !progress.writing && progress.pending == 0, failed: progress.lastError != nil)
    }
  }
}
