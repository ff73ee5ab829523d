/// A synchronous subscription: called on the emitting thread for every change, in order.
///
/// ```swift
/// let token = bloc.listen { update in print(update.sequence, update.state) }
/// …
/// bloc.removeListener(token)
/// ```
/// Unlike ``BlocBase/states`` no task is woken per change, so a listener costs little; it must
/// be quick, must not block, and must not emit. A daemon pushes to its clients this way.
final class Listener<State: Sendable>: Sendable {
  fileprivate let token = ObserverToken()
  private let body: @Sendable (StateUpdate<State>) -> Void
  private let delivered = Locked<UInt64?>(nil)

  init(_ body: @escaping @Sendable (StateUpdate<State>) -> Void) { self.body = body }

  /// Delivers `update` unless a newer one was already delivered (a change racing the first
  /// delivery), so a listener never sees the sequence go backwards.
  func deliver(_ update: StateUpdate<State>) {
    delivered.withLock { last in
      if let last, last >= update.sequence { return }
      last = update.sequence
      body(update)
    }
  }
}

extension BlocBase {
  /// Calls `body` with the current state at once, then synchronously with every later change.
  /// Returns a token for ``removeListener(_:)``. Listeners end when the bloc closes.
  ///
  /// For a persisted bloc, listeners see only stored states (``storedSnapshot``), from the
  /// thread that stored them: a state whose write fails is never delivered.
  @discardableResult
  public func listen(_ body: @escaping @Sendable (StateUpdate<State>) -> Void) -> ObserverToken {
    let listener = Listener(body)
    let current = core.withLock { core -> StateUpdate<State>? in
      if core.isClosed { return nil }
      core.listeners.append(listener)
      return core.stored ?? StateUpdate(sequence: core.sequence, state: core.state)
    }
    if let current { listener.deliver(current) }
    return listener.token
  }

  /// Stops a listener added with ``listen(_:)``.
  public func removeListener(_ token: ObserverToken) {
    core.withLock { $0.listeners.removeAll { $0.token == token } }
  }
}
