/// Where a bloc's changes stand on their way to storage, read in one trip to the bloc's
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

/// The JSON of a persisted bloc's newest stored state, as it was written for storage
/// (``BlocBase/keepStoredText()``), and the change it is the state of.
package struct StoredText: Sendable {
  package let sequence: UInt64
  package let json: [UInt8]
}

extension BlocBase {
  /// Where the bloc's changes stand on their way to storage (see ``StoreProgress``).
  package var storeProgress: StoreProgress { storeProgressAndText.progress }

  /// ``storeProgress``, and in the same trip to the bloc's lock the text of the newest
  /// stored state when it is kept (``keepStoredText()``; nil before the first write, or when
  /// nothing is persisted): the state ``storedSnapshot`` shows, unless a newer one was stored
  /// meanwhile. Never newer than ``StoreProgress/storedThrough``.
  package var storeProgressAndText: (progress: StoreProgress, text: StoredText?) {
    guard let persister else { return (.nothingPersisted, nil) }
    return persister.withProgress { progress in
      (
        StoreProgress(
          durable: progress.durable, abandonedThrough: progress.abandonedThrough,
          settled: !progress.writing && progress.pending == 0, failed: progress.lastError != nil),
        progress.textSequence == 0
          ? nil : StoredText(sequence: progress.textSequence, json: progress.text)
      )
    }
  }

  /// The text of the newest stored state when it is kept (``keepStoredText()``).
  package var storedText: StoredText? { storeProgressAndText.text }
}
