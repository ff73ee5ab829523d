import BlocCore

/// A latch a fake service waits on until the test opens it, or until its task is cancelled:
/// controls timing with no sleeps.
final class Gate: Sendable {
  private struct Waiters {
    var open = false
    var lastID: UInt64 = 0
    var waiting: [UInt64: CheckedContinuation<Void, Never>] = [:]
  }
  private let waiters = Locked(Waiters())

  /// Returns when the gate opens or the task is cancelled (check `Task.isCancelled`).
  func wait() async {
    let id = waiters.withLock { waiters in
      waiters.lastID += 1
      return waiters.lastID
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let ready = waiters.withLock { waiters -> Bool in
          if waiters.open || Task.isCancelled { return true }
          waiters.waiting[id] = continuation
          return false
        }
        if ready { continuation.resume() }
      }
    } onCancel: {
      waiters.withLock { $0.waiting.removeValue(forKey: id) }?.resume()
    }
  }

  func open() {
    let waiting = waiters.withLock { waiters in
      waiters.open = true
      defer { waiters.waiting = [:] }
      return waiters.waiting.values
    }
    for waiter in waiting { waiter.resume() }
  }

  var waiting: Int { waiters.withLock { $0.waiting.count } }
}

/// Waits (yielding, never sleeping) until `condition` holds.
func eventually(_ condition: @Sendable () -> Bool) async {
  for _ in 0..<100_000 where !condition() { await Task.yield() }
}
