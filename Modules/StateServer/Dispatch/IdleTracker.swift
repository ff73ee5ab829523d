import BlocCore

/// Counts sessions with replies in flight, so shutdown can wait until they are all sent.
final class IdleTracker: Sendable {
  private struct State {
    var busy = 0
    var waiters: [CheckedContinuation<Void, Never>] = []
  }
  private let state = Locked(State())

  func begin() { state.withLock { $0.busy += 1 } }

  func end() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.busy -= 1
      guard state.busy == 0 else { return [] }
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  var isIdle: Bool { state.withLock { $0.busy == 0 } }

  func waitUntilIdle() async {
    await withCheckedContinuation { continuation in
      let idle = state.withLock { state -> Bool in
        if state.busy == 0 { return true }
        state.waiters.append(continuation)
        return false
      }
      if idle { continuation.resume() }
    }
  }
}
