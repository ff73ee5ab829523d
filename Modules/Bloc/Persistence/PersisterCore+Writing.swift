import Foundation

/// A persister's writes: the newest state taken for the sink's write, encoded into the
/// persister's buffer, and the write's end (stored or failed) told to the bloc and the waiters.
extension PersisterCore {
  /// What a write takes besides the states: the changes it stores, the buffer, the hooks.
  struct Taken {
    let sequence: UInt64
    /// How and when the newest change was made, when noted.
    var noted: Noted?
    /// The changes before the newest that the write stores first (their states are the
    /// subclass' ``Persister/earlier``), oldest first.
    var earlier: [Noted] = []
    var buffer: [UInt8] = []
    var hooks = WriteHooks()
  }

  /// The newest state, encoded, for the sink's next write; nil when a rollback dropped it.
  final func takeForWrite() -> StagedWrite? {
    var released: AnyObject?  // let go of outside the lock
    let taken = progress.withLock { progress -> Taken? in
      guard progress.pending != 0 else {
        released = progress.endWriting()
        return nil
      }
      var taken = Taken(sequence: progress.pending)
      progress.pending = 0
      progress.inFlight = taken.sequence
      swap(&taken.buffer, &progress.scratch)
      taken.hooks = progress.hooks
      guard keepsEveryChange else {
        takeStates(backlog: 0, earlier: 0)
        return taken
      }
      // Every change up to the newest goes into this write, each a value of its own: the
      // newest with the pending state, the others (when several changes share the write)
      // before it. Plain indices: no generic collection algorithm, no allocation.
      var end = 0
      while end < progress.backlog.count, progress.backlog[end].sequence <= taken.sequence {
        end += 1
      }
      var earlier = end
      if end > 0, progress.backlog[end - 1].sequence == taken.sequence {
        taken.noted = progress.backlog[end - 1]
        earlier -= 1
      }
      if earlier > 0 { taken.earlier = Array(progress.backlog[0..<earlier]) }
      if end == progress.backlog.count {
        progress.backlog.removeAll(keepingCapacity: true)
      } else if end > 0 {
        progress.backlog.removeSubrange(0..<end)
      }
      takeStates(backlog: end, earlier: earlier)
      return taken
    }
    guard var taken else {
      releaseLeftoverWaiters()
      withExtendedLifetime(released) {}
      return nil
    }
    do {
      return try write(&taken)
    } catch {
      finish(.writeFailed(key: key, reason: "\(error)"))
      return nil
    }
  }

  /// The stored records of the states taken, in one buffer kept from write to write (it comes
  /// back with the write's end); each value is copied out of it once, into an array of its
  /// exact size that the storage keeps.
  private func write(_ taken: inout Taken) throws -> StagedWrite {
    if taken.buffer.capacity == 0 { taken.buffer.reserveCapacity(256) }
    var before: [[UInt8]] = []
    if !taken.earlier.isEmpty {
      before.reserveCapacity(taken.earlier.count)
      for index in 0..<taken.earlier.count {
        let old = taken.earlier[index]
        taken.buffer.removeAll(keepingCapacity: true)
        let change = StoredChange(sequence: old.sequence, cause: old.cause, time: old.time)
        _ = try encode(earlier: index, change, taken.hooks.events, into: &taken.buffer)
        before.append(Self.copy(taken.buffer))
      }
    }
    taken.buffer.removeAll(keepingCapacity: true)
    let change = StoredChange(
      sequence: taken.sequence, cause: taken.noted?.cause, time: taken.noted?.time)
    let json = try encode(earlier: nil, change, taken.hooks.events, into: &taken.buffer)
    taken.hooks.shareText?.share(taken.sequence, taken.buffer[json])
    let data = Self.copy(taken.buffer)
    taken.buffer.removeAll(keepingCapacity: true)
    return StagedWrite(key: key, data: data, earlier: before, source: self, buffer: taken.buffer)
  }

  /// A new array holding `bytes`, of their exact size (`Array(bytes)` would share the buffer).
  private static func copy(_ bytes: [UInt8]) -> [UInt8] {
    bytes.withUnsafeBufferPointer { source in
      [UInt8](unsafeUninitializedCapacity: source.count) { target, count in
        count = target.initialize(fromContentsOf: source)
      }
    }
  }

  /// The write taken last ended (``StagedWrite/complete(_:)``).
  final func writeEnded(_ error: (any Error)?, buffer: [UInt8]) {
    finish(error.map { Self.failure(key, $0) }, scratch: buffer)
  }

  /// The write in flight ended (failed when `failure` is set); `scratch`: its buffer, kept for
  /// the next write.
  private func finish(_ failure: PersistenceError?, scratch: [UInt8] = []) {
    let (owner, sequence) = progress.withLock { progress in
      if scratch.capacity > progress.scratch.capacity { progress.scratch = scratch }
      defer { progress.inFlight = 0 }
      return (progress.owner, progress.inFlight)
    }
    if let failure {
      progress.withLock { $0.lastError = failure }
      // The bloc abandons every change it has (this one included) and releases their waiters.
      if let owner {
        failed(failure, owner: owner)
      } else {
        for waiter in abandon(through: sequence, failure) { waiter.notify(failure) }
      }
    } else {
      // Shown as stored before anyone can learn it is: a waiter released (here, or by a
      // `whenStored` racing this) must find the stored state already showing it.
      if let owner { stored(sequence, owner: owner) }
      var released: AnyObject?  // let go of outside the lock
      // One trip to the lock: the write's waiters, and whether a state came meanwhile (for
      // the sink's next write) or the persister is done writing (then whoever still waits,
      // for a change never scheduled, learns this write's result).
      let (ready, again) = progress.withLock { progress -> ([StoreWaiter], Bool) in
        progress.lastError = nil
        progress.durable = max(progress.durable, sequence)
        var ready = progress.takeWaiters(through: sequence)
        if progress.pending != 0 { return (ready, true) }
        released = progress.endWriting()
        if !progress.waiters.isEmpty {
          ready += progress.waiters
          progress.waiters = []
        }
        return (ready, false)
      }
      for waiter in ready { waiter.notify(nil) }
      if again { stageWithSink() }
      withExtendedLifetime(released) {}
      return
    }
    // A state that came meanwhile goes into the sink's next write.
    var released: AnyObject?  // let go of outside the lock
    let again = progress.withLock { progress -> Bool in
      if progress.pending != 0 { return true }
      released = progress.endWriting()
      return false
    }
    if again { stageWithSink() } else { releaseLeftoverWaiters() }
    withExtendedLifetime(released) {}
  }

  /// Nothing newer is coming: whoever still waits (for a change never scheduled) learns the
  /// last write's result.
  private func releaseLeftoverWaiters() {
    let (left, error) = progress.withLock { progress -> ([StoreWaiter], PersistenceError?) in
      guard !progress.writing, progress.pending == 0 else { return ([], nil) }
      let left = progress.waiters
      progress.waiters = []
      return (left, progress.lastError)
    }
    for waiter in left { waiter.notify(error) }
  }

}
