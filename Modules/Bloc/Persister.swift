import Dispatch
import Foundation

/// Writes a bloc's latest state in the background and tells waiters when a version is on disk.
///
/// Writes coalesce: while one write runs, newer states replace each other and only the newest
/// is written next (group commit), so a burst of changes costs few writes and every waiter is
/// released by the first write that covers its version.
final class Persister<State: Sendable>: Sendable {
  private struct Progress {
    var pending: (version: UInt64, state: State)?
    var writing = false
    var durable: UInt64
    var lastError: PersistenceError?
    var waiters: [Waiter] = []
  }

  private let persistence: Persistence<State>
  private let progress: Locked<Progress>
  // Blocking file I/O runs here, off the cooperative pool, one write at a time.
  private let queue: DispatchQueue
  private let report: @Sendable (PersistenceError) -> Void

  init(
    _ persistence: Persistence<State>, durable version: UInt64,
    report: @escaping @Sendable (PersistenceError) -> Void
  ) {
    self.persistence = persistence
    self.progress = Locked(Progress(durable: version))
    self.queue = DispatchQueue(label: "bloc.persist.\(persistence.key)")
    self.report = report
  }

  func schedule(_ state: State, version: UInt64) {
    let start = progress.withLock { progress -> Bool in
      if let pending = progress.pending, pending.version > version { return false }
      progress.pending = (version, state)
      if progress.writing { return false }
      progress.writing = true
      return true
    }
    if start { queue.async { self.drain() } }
  }

  /// Waits until `version` (or a later one) is stored; returns the error if that write failed.
  func waitUntilStored(_ version: UInt64) async -> PersistenceError? {
    await withCheckedContinuation { continuation in
      whenStored(version) { continuation.resume(returning: $0) }
    }
  }

  /// Calls `body` once `version` (or a later one) is stored, with the error if that write
  /// failed: at once if it already is, else from the writer's queue. No task is needed.
  func whenStored(_ version: UInt64, _ body: @escaping @Sendable (PersistenceError?) -> Void) {
    let ready: PersistenceError?? = progress.withLock { progress in
      if progress.durable >= version { return .some(nil) }
      if !progress.writing, progress.pending == nil { return .some(progress.lastError) }
      progress.waiters.append((version, body))
      return nil
    }
    if let ready { body(ready) }
  }

  private func drain() {
    while true {
      let step = progress.withLock { progress -> DrainStep in
        guard let pending = progress.pending else {
          // Nothing newer is coming from this drain: release whoever still waits.
          progress.writing = false
          let left = progress.waiters
          progress.waiters = []
          return .finished(left, progress.lastError)
        }
        progress.pending = nil
        return .write(pending.version, pending.state)
      }
      guard case .write(let version, let state) = step else {
        if case .finished(let left, let error) = step {
          for waiter in left { waiter.notify(error) }
        }
        return
      }
      var failure: PersistenceError?
      do {
        try persistence.storage.write(persistence.key, persistence.encode(state))
      } catch let error as PersistenceError {
        failure = error
      } catch {
        failure = .writeFailed(key: persistence.key, reason: String(describing: error))
      }
      if let failure { report(failure) }
      let ready = progress.withLock { progress in
        progress.lastError = failure
        if failure == nil { progress.durable = max(progress.durable, version) }
        let covered = failure == nil ? version : UInt64.max
        let ready = progress.waiters.filter { $0.version <= covered }
        progress.waiters.removeAll { $0.version <= covered }
        return ready
      }
      for waiter in ready { waiter.notify(failure) }
    }
  }

  private enum DrainStep {
    case write(UInt64, State)
    case finished([Waiter], PersistenceError?)
  }
  private typealias Waiter = (
    version: UInt64, notify: @Sendable (PersistenceError?) -> Void
  )
}
