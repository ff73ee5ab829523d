/// A storage whose writes can be gathered into batches the caller marks out: an event loop
/// begins one before it handles the requests of a turn and commits it after, so that every
/// change of the turn, whatever the bloc, shares one write (``JournalStorage``).
///
/// ```swift
/// storage.beginBatch()
/// for request in requestsReadThisTurn { handle(request) }  // blocs change, nothing written yet
/// storage.commitBatch()  // one write for all of them
/// ```
public protocol WriteBatching: Sendable {
  /// Holds new writes until the matching ``commitBatch(othersWaiting:)``. Batches may nest.
  func beginBatch()
  /// Ends a ``beginBatch()``; when no other is open, writes what was held. `othersWaiting`
  /// tells whether the caller has others to serve meanwhile (then a sync may run on a thread
  /// of the storage's own), or none (then the batch is written on the calling thread).
  func commitBatch(othersWaiting: Bool)
}

extension WriteBatching {
  /// Ends a ``beginBatch()``, writing what was held on the calling thread.
  public func commitBatch() { commitBatch(othersWaiting: false) }
}
