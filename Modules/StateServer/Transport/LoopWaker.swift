import BlocCore
import Glibc
import Synchronization

/// How other threads hand work to the event loop: a lock-protected inbox plus an
/// eventfd the loop polls. The eventfd is written only when the loop may be asleep
/// and nobody has written yet (`needsSignal`), so bursts cost one syscall, and replies
/// produced on the loop thread itself cost none.
final class LoopWaker: Sendable {
  /// What the loop should look at on its next turn.
  struct Inbox {
    /// Connections with new outbound bytes or a close request.
    var ready: [Connection] = []
    var shutdownRequested = false
    var drainFinished = false
    /// Changes that turn replies wait for may be stored (``storeProgressed()``).
    var storeProgressed = false
  }

  let eventFD: Int32
  private let inbox = Locked(Inbox())
  /// True while the loop is (about to be) blocked in epoll_wait.
  private let needsSignal = Atomic(false)
  /// Whether the inbox holds anything: set under its lock with what is put in, cleared under
  /// it when the loop takes it, read by the loop without the lock, so that a pass with an
  /// empty inbox (the daemon's usual one: replies of the loop's own turn need no entry) takes
  /// no lock.
  private let pending = Atomic(false)

  init() throws {
    let fd = LinuxSymbols.eventfd(0, LinuxSymbols.closeOnExec | LinuxSymbols.nonBlocking)
    guard fd >= 0 else { throw ServerError.systemCall("eventfd", path: nil, errno: errno) }
    eventFD = fd
  }

  deinit {
    // Connections keep the waker alive, so no sender can write to a reused descriptor.
    close(eventFD)
  }

  /// Queues `connection` for a flush. Callers schedule each connection at most once
  /// until the loop takes it (see `Connection`).
  func schedule(_ connection: Connection) {
    inbox.withLock {
      $0.ready.append(connection)
      pending.store(true, ordering: .sequentiallyConsistent)
    }
    signal()
  }

  func requestShutdown() {
    inbox.withLock {
      $0.shutdownRequested = true
      pending.store(true, ordering: .sequentiallyConsistent)
    }
    signal()
  }

  func drainDidFinish() {
    inbox.withLock {
      $0.drainFinished = true
      pending.store(true, ordering: .sequentiallyConsistent)
    }
    signal()
  }

  /// Changes that turn replies wait for may be stored now: the loop writes those replies
  /// (``EventLoop/storeWaiters``). Called by the waits the delegate registers, at most one
  /// at a time per feature: from the storage's writer once per batch, not per reply.
  func storeProgressed() {
    inbox.withLock {
      $0.storeProgressed = true
      pending.store(true, ordering: .sequentiallyConsistent)
    }
    signal()
  }

  // MARK: Loop side

  /// Called by the loop before it blocks; anything queued afterwards signals the eventfd.
  func loopWillSleep() {
    needsSignal.store(true, ordering: .sequentiallyConsistent)
  }

  /// Called by the loop after epoll_wait returns; senders need not signal while it runs.
  func loopDidWake() {
    needsSignal.store(false, ordering: .sequentiallyConsistent)
  }

  /// Swaps the pending ready list into `ready` (which must be empty) and returns the flags.
  func takeInbox(
    into ready: inout [Connection]
  ) -> (shutdown: Bool, drained: Bool, storeProgressed: Bool) {
    guard pending.load(ordering: .sequentiallyConsistent) else { return (false, false, false) }
    return inbox.withLock { box in
      pending.store(false, ordering: .sequentiallyConsistent)
      swap(&ready, &box.ready)
      defer {
        box.shutdownRequested = false
        box.drainFinished = false
        box.storeProgressed = false
      }
      return (box.shutdownRequested, box.drainFinished, box.storeProgressed)
    }
  }

  /// True when something was queued since the last `takeInbox` (the loop checks this
  /// after `loopWillSleep`, so work queued before that store is never slept on).
  func hasPendingWork() -> Bool {
    pending.load(ordering: .sequentiallyConsistent)
  }

  /// Resets the eventfd counter after it polled readable.
  func consumeSignal() {
    var counter: UInt64 = 0
    _ = read(eventFD, &counter, 8)
  }

  private func signal() {
    if needsSignal.exchange(false, ordering: .sequentiallyConsistent) {
      var one: UInt64 = 1
      _ = write(eventFD, &one, 8)
    }
  }
}
