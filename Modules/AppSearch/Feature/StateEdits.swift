import BlocCore

/// Makes each read-modify-emit of a handler atomic with respect to the other lanes.
///
/// A lane is sequential only within itself: the search lane and the marks lane run side by
/// side and change different parts of one state. Without this, one could emit a state it read
/// before the other's change and so undo it (a mark lost when results arrive).
///
/// ```swift
/// edits.apply(emit) { $0.toggleMark(42) }
/// ```
struct StateEdits<State: Sendable & Equatable>: Sendable {
  private let lock = Locked(())

  /// Applies `change` to the current state and emits the result, unless the handler is no
  /// longer active (superseded or closed). Returns the state emitted, or nil.
  /// A `change` that throws emits nothing.
  @discardableResult
  func apply<Failure: Error>(
    _ emit: Emitter<State>, _ change: (inout State) throws(Failure) -> Void
  ) throws(Failure) -> State? {
    let result: Result<State?, Failure> = lock.withLock { _ in
      guard emit.isActive else { return .success(nil) }
      var state = emit.state
      do throws(Failure) {
        try change(&state)
      } catch {
        return .failure(error)
      }
      emit(state)
      return .success(state)
    }
    return try result.get()
  }
}
