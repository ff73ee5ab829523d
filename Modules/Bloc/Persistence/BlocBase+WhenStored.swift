extension BlocBase {
  /// Calls `body` once the state of `sequence` (or a later one) is stored, with the error if
  /// that write failed: at once when it already is (or the bloc persists nothing), otherwise
  /// on the writer's thread (keep `body` quick). The callback form of ``waitUntilStored()``,
  /// for servers that reply without a waiting task.
  ///
  /// ```swift
  /// if bloc.undo() {
  ///   bloc.whenStored(bloc.sequence) { error in reply(error) }
  /// }
  /// ```
  public func whenStored(
    _ sequence: UInt64, _ body: @escaping @Sendable (PersistenceError?) -> Void
  ) {
    guard let persister else { return body(nil) }
    persister.whenStored(sequence, body)
  }
}

/// Where a change is on its way to storage (``BlocBase/storeStatus(of:)``).
package enum StoreStatus: Sendable {
  /// Stored (or the bloc persists nothing).
  case stored
  /// Its write failed: the change was rolled back and is never shown or stored.
  case failed(PersistenceError)
  /// Not written yet.
  case pending
}

extension BlocBase {
  /// Whether the state of `sequence` (or a later one) is stored, without waiting: the answer
  /// ``whenStored(_:_:)`` would give now. For a host that learns after its own write (a
  /// daemon's loop turn) what became of the changes it made.
  package func storeStatus(of sequence: UInt64) -> StoreStatus {
    guard let persister else { return .stored }
    return persister.status(of: sequence)
  }
}
