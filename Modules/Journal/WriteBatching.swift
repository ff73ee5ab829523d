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
  /// Holds new writes until the matching ``commitBatch(connections:)``. Batches may nest.
  func beginBatch()
  /// Ends a ``beginBatch()``; when no other is open, writes what was held. `connections`:
  /// how many clients the caller served in the batch. With more than one, it has others to
  /// serve meanwhile (then a sync may run on a thread of the storage's own, which may wait
  /// for those clients' next writes to share the next sync); with one or none the batch is
  /// written on the calling thread.
  func commitBatch(connections: Int)
}

extension WriteBatching {
  /// Ends a ``beginBatch()``, writing what was held on the calling thread.
  public func commitBatch() { commitBatch(connections: 0) }
}
