import BlocCore
import Synchronization

/// Counts sessions with replies in flight, so shutdown can wait until they are all sent.
final class IdleTracker: Sendable {
  /// Sessions with replies in flight: counted without the lock, since a count begins and ends
  /// with about every reply that waits (under `--sync always`, nearly every one); the lock
  /// guards the waiters alone.
  private let busy = Atomic(0)
  private let waiters = Locked<[CheckedContinuation<Void, Never>]>([])

  func begin() { busy.add(1, ordering: .sequentiallyConsistent) }

  func end() {
    guard busy.subtract(1, ordering: .sequentiallyConsistent).newValue == 0 else { return }
    // A waiter either saw the count at 0 (under the lock, after this), or is in the list by
    // now. (One released while a new count began meanwhile looks again: see `drain`.)
    let ready = waiters.withLock { waiters in
      defer { waiters = [] }
      return waiters
    }
    for waiter in ready { waiter.resume() }
  }

  var isIdle: Bool { busy.load(ordering: .sequentiallyConsistent) == 0 }

  func waitUntilIdle() async {
    await withCheckedContinuation { continuation in
      let idle = waiters.withLock { waiters -> Bool in
        if busy.load(ordering: .sequentiallyConsistent) == 0 { return true }
        waiters.append(continuation)
        return false
      }
      if idle { continuation.resume() }
    }
  }
}
