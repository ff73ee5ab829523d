import Foundation

/// A persister's writes: the newest state taken for the sink's write, encoded into the
/// sink's buffer, and the write's end (stored or failed) told to the bloc and the waiters.
extension PersisterCore {
  /// What the write in flight took besides the states (the subclass'): set under the lock when
  /// the write is taken, then read by that write alone; the next is taken after it ended.
  struct Taken {
    /// The newest change the write stores.
    var sequence: UInt64 = 0
    /// The bloc (``Progress/owner``), told of the write's result.
    var owner: AnyObject?
    /// Every change the write stores as a value of its own (``keepsEveryChange``), oldest
    /// first, the newest last when it was noted; their states are the subclass' `earlier`
    /// ones, in the same order. Its storage is traded with the backlog's, not copied.
    var changes: [StoredChange] = []
    var hooks = WriteHooks()
    /// The JSON of the newest state written (``WriteHooks/keepsText``), kept with the progress
    /// when the write is stored (``Progress/text``, whose storage it then takes).
    var text: [UInt8] = []
    /// `text` holds this write's state.
    var hasText = false
  }

  /// Appends the newest state, encoded, to the sink's `values` (and, when every change is
  /// kept, those before it); false when a rollback dropped it.
  final func takeForWrite(into values: inout StagedValues) -> Bool {
    var released: AnyObject?  // let go of outside the lock
    let took = withProgress { progress -> Bool in
      guard progress.pending != 0 else {
        released = progress.endWriting()
        return false
      }
      taken.sequence = progress.pending
      taken.owner = progress.owner
      if taken.hooks.generation != progress.hooks.generation { taken.hooks = progress.hooks }
      progress.pending = 0
      // One change (the usual write's) goes by removeLast: removeAll(keepingCapacity:) takes
      // Array's general replaceSubrange, about 150 instructions even for one element.
      if taken.changes.count == 1 {
        taken.changes.removeLast()
      } else if !taken.changes.isEmpty {
        taken.changes.removeAll(keepingCapacity: true)
      }
      guard keepsEveryChange else {
        takeStates(backlog: 0)
        return true
      }
      // Every change up to the newest goes into this write, each a value of its own: all of
      // the backlog, usually, whose storage then trades places with the last write's. Plain
      // indices: no generic collection algorithm, no allocation.
      var end = 0
      while end < progress.backlog.count, progress.backlog[end].sequence <= taken.sequence {
        end += 1
      }
      if end == progress.backlog.count {
        swap(&taken.changes, &progress.backlog)
      } else if end > 0 {
        taken.changes.append(contentsOf: progress.backlog[0..<end])
        progress.backlog.removeSubrange(0..<end)
      }
      takeStates(backlog: end)
      return true
    }
    guard took else {
      releaseLeftoverWaiters()
      withExtendedLifetime(released) {}
      return false
    }
    let mark = values.mark
    do {
      try write(into: &values)
      return true
    } catch {
      values.cut(to: mark)
      finish(failed: .writeFailed(key: key, reason: "\(error)"))
      return false
    }
  }

  /// The stored records of the states taken, written straight into the sink's buffer.
  private func write(into values: inout StagedValues) throws {
    let (sequence, events) = (taken.sequence, taken.hooks.events)
    // Each change read where it is (not copied, with its event, out of the array).
    let json = try taken.changes.withUnsafeBufferPointer { changes in
      let newestNoted = changes.last?.sequence == sequence
      for index in 0..<(newestNoted ? changes.count - 1 : changes.count) {
        let start = values.beginValue()
        _ = try encode(earlier: index, changes[index], events, into: &values.bytes)
        values.endValue(from: start)
      }
      let start = values.beginValue()
      let json =
        newestNoted
        ? try encode(earlier: nil, changes[changes.count - 1], events, into: &values.bytes)
        : try encode(earlier: nil, StoredChange(sequence: sequence), events, into: &values.bytes)
      values.endValue(from: start)
      return json
    }
    guard taken.hooks.keepsText else { return }
    // Into the storage of the text kept two writes ago, which nobody holds any more, usually:
    // no allocation per write.
    values.bytes.withUnsafeBufferPointer { bytes in
      taken.text.replaceSubrange(
        taken.text.indices, with: UnsafeBufferPointer(rebasing: bytes[json]))
    }
    taken.hasText = true
  }

  /// The write taken last ended.
  final func writeEnded(_ error: (any Error)?) {
    // Two functions, not one taking an optional error: an optional `PersistenceError` (an
    // enum with strings) is destroyed through an outlined function, about 110 instructions,
    // even when nil.
    if let error { finish(failed: Self.failure(key, error)) } else { finishStored() }
  }

  /// The write in flight failed.
  private func finish(failed failure: PersistenceError) {
    let sequence = taken.sequence
    let owner = taken.owner.take()  // the write's hold on the bloc ends with it
    taken.hasText = false
    withProgress { $0.lastError = failure }
    // The bloc abandons every change it has (this one included) and releases their waiters.
    if let owner {
      failed(failure, owner: owner)
    } else {
      for waiter in abandon(through: sequence, failure) { waiter.notify(failure) }
    }
    // A state that came meanwhile goes into the sink's next write.
    var released: AnyObject?  // let go of outside the lock
    let again = withProgress { progress -> Bool in
      if progress.pending != 0 { return true }
      released = progress.endWriting()
      return false
    }
    if again { stageWithSink() } else { releaseLeftoverWaiters() }
    withExtendedLifetime(released) {}
  }

  /// The write in flight stored its state.
  private func finishStored() {
    let sequence = taken.sequence
    let owner = taken.owner.take()  // the write's hold on the bloc ends with it
    let hasText = taken.hasText
    taken.hasText = false
    var ready: [StoreWaiter] = []
    var released: AnyObject?  // let go of outside the lock
    // One trip to the bloc's lock: the state shown as stored before anyone can learn it is
    // (a waiter released, here or by a `whenStored` racing this, must find it showing), then
    // counted as stored. A bloc with listeners tells them in between, outside the lock: they
    // hear of it before anyone learns it is stored (a server pushes it to watchers before
    // replying), while the persister is still writing (no other write is taken, which would
    // replace the state they are told).
    let counted = withProgress { progress -> Bool? in
      if owner != nil, publish(sequence) { return nil }
      return countStored(sequence, hasText, &progress, &ready, &released)
    }
    var again = counted ?? false
    if counted == nil, let owner {
      tellListeners(sequence, owner: owner)
      again = withProgress { countStored(sequence, hasText, &$0, &ready, &released) }
    }
    for waiter in ready { waiter.notify(nil) }
    if again { stageWithSink() }
    withExtendedLifetime(released) {}
  }

  /// Under the bloc's lock: change `sequence`, written by the write in flight (its text kept
  /// when `hasText`), is stored. Its waiters (and, when nothing is left to write, whoever still
  /// waits) go into `ready`; true when a state came meanwhile, for the sink's next write.
  private func countStored(
    _ sequence: UInt64, _ hasText: Bool, _ progress: inout Progress,
    _ ready: inout [StoreWaiter], _ released: inout AnyObject?
  ) -> Bool {
    // Set only after a failed write: assigning nil would destroy the old value through an
    // outlined function (about 110 instructions) on every write.
    if case .some = progress.lastError { progress.lastError = nil }
    progress.durable = max(progress.durable, sequence)
    if hasText, sequence > progress.textSequence {
      swap(&progress.text, &taken.text)
      progress.textSequence = sequence
    }
    ready = progress.takeWaiters(through: sequence)
    return progress.writesAgain(&ready, &released)
  }

  /// Nothing newer is coming: whoever still waits (for a change never scheduled) learns the
  /// last write's result.
  private func releaseLeftoverWaiters() {
    let (left, error) = withProgress { progress -> ([StoreWaiter], PersistenceError?) in
      guard !progress.writing, progress.pending == 0 else { return ([], nil) }
      let left = progress.waiters
      progress.waiters = []
      return (left, progress.lastError)
    }
    for waiter in left { waiter.notify(error) }
  }

}
