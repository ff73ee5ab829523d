import BlocCore

/// The session's side of the turn replies (``TurnReplies``, the loop's): it learns once per
/// turn that they are unwritten, so that what it queues meanwhile waits behind them, and that
/// they are written. Both without the lock while nothing is queued: the loop sets and clears
/// ``Flags/turnUnwritten`` with one atomic step that fails when ``Flags/itemsQueued`` is set,
/// and a reply queued on another thread sets that bit while it reads the other (`enqueue`).
extension ClientSession {
  /// Whether replies wait in the queue (read by the loop, which alone queues this
  /// connection's replies while it runs its frames).
  var hasQueuedReplies: Bool {
    flags.load(ordering: .sequentiallyConsistent) & Flags.itemsQueued != 0
  }

  /// Loop thread, for the first turn reply of a turn: notes that turn replies are unwritten.
  /// False when they cannot come next: replies are queued, or turn replies of an earlier turn
  /// still wait for their store.
  func beginTurn() -> Bool {
    let now = flags.load(ordering: .sequentiallyConsistent)
    guard now & (Flags.itemsQueued | Flags.turnUnwritten) == 0 else { return false }
    return flags.compareExchange(
      expected: now, desired: now | Flags.turnUnwritten, ordering: .sequentiallyConsistent
    ).exchanged
  }

  /// Loop thread: the turn's replies are queued on the connection. Without the lock unless
  /// replies were queued behind them, which are sent now.
  func endTurn() {
    var now = flags.load(ordering: .sequentiallyConsistent)
    while now & Flags.itemsQueued == 0 {
      let (exchanged, found) = flags.compareExchange(
        expected: now, desired: now & ~Flags.turnUnwritten, ordering: .sequentiallyConsistent)
      if exchanged {
        if now & Flags.inputEnded != 0 { connection.close() }
        return
      }
      now = found
    }
    let idle = state.withLock { state -> Bool in
      flags.bitwiseAnd(~Flags.turnUnwritten, ordering: .sequentiallyConsistent)
      return sendBehindTurn(&state)
    }
    if idle { tracker.end() }
  }

  /// Under the lock, once the turn replies are written: sends what was queued behind them
  /// (closing when the client is done). Returns whether the session became idle.
  private func sendBehindTurn(_ state: inout State) -> Bool {
    guard !state.isEmpty else {
      if flags.load(ordering: .sequentiallyConsistent) & Flags.inputEnded != 0 {
        connection.close()
      }
      return false
    }
    guard case .turn = state.items[state.head] else { return false }
    state.items[state.head] = .done
    state.head += 1
    queueReady(&state)
    return state.isEmpty
  }
}
