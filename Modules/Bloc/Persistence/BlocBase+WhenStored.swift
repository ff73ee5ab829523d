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
