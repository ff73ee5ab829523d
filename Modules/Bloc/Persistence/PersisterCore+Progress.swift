/// Where a persister's writes stand, under the bloc's lock: which change is pending, in flight,
/// stored or failed, who waits, and what the next write takes along.
extension PersisterCore {
  struct Progress {
    /// The sequence number of the state the next write stores (the subclass holds the state);
    /// 0: none (changes are numbered from 1).
    var pending: UInt64 = 0
    var scheduled: UInt64 = 0
    /// Staged with the sink or being written: a newer state waits in `pending` meanwhile.
    var writing = false
    var durable: UInt64
    /// Changes at or below this sequence number were abandoned by a rollback: never written, never waited on.
    var abandonedThrough: UInt64 = 0
    /// The sequence numbers each failed write took down (durable + 1 … rollback point), newest last.
    var failedWrites: [FailedWrite] = []
    var lastError: PersistenceError?
    var waiters: [StoreWaiter] = []
    /// Every change not yet taken for a write, oldest first, when each is stored as a value of
    /// its own (``keepsEveryChange``): recorded under the bloc's lock, so in order. The
    /// subclass keeps their states, in the same order.
    var backlog: [StoredChange] = []
    /// What a write asks for besides the state, read with it.
    var hooks = WriteHooks()
    /// The JSON of the state of change `textSequence`, the newest stored one whose text was
    /// kept (``WriteHooks/keepsText``; 0: none): set by the write's end that stored it, with
    /// `durable`, so never newer than `durable`. Its storage trades places with the write's
    /// (``Taken/text``), so a state's text is copied once, out of the record.
    var text: [UInt8] = []
    var textSequence: UInt64 = 0
    /// The bloc, held while a write is staged or in flight and only then: it is told of the
    /// write's result, and a bloc dropped meanwhile still has its last change stored. (The
    /// bloc holds its persister, so holding it always would be a cycle; a weak reference would
    /// give the bloc a side table, and every retain of the bloc would take the slow path.)
    var owner: AnyObject?

    init(durable: UInt64) { self.durable = durable }

    /// Nothing is staged or in flight any more: the bloc is let go of (return it, to release it
    /// outside the lock).
    mutating func endWriting() -> AnyObject? {
      writing = false
      return owner.take()
    }

    /// After a write stored its state: true when a state came meanwhile (for the sink's next
    /// write); otherwise the persister is done writing, the bloc is let go of (into
    /// `released`, to release outside the lock), and whoever still waits (for a change never
    /// scheduled) joins `ready`, to learn this write's result.
    mutating func writesAgain(_ ready: inout [StoreWaiter], _ released: inout AnyObject?) -> Bool {
      if pending != 0 { return true }
      released = endWriting()
      if !waiters.isEmpty {
        ready += waiters
        waiters = []
      }
      return false
    }

    /// Removes and returns the waiters for `sequence` and older: all of them, usually.
    mutating func takeWaiters(through sequence: UInt64) -> [StoreWaiter] {
      if waiters.allSatisfy({ $0.sequence <= sequence }) {
        defer { waiters = [] }
        return waiters
      }
      let ready = waiters.filter { $0.sequence <= sequence }
      waiters.removeAll { $0.sequence <= sequence }
      return ready
    }

    /// Makes change `sequence` the pending one, unless a rollback or a newer change came first.
    mutating func claim(_ sequence: UInt64, owner: AnyObject) -> Claim {
      // A change racing a rollback that already covers it: it failed with the others.
      if sequence <= abandonedThrough { return .refused }
      // Never an older state after a newer one.
      if sequence <= scheduled { return .refused }
      scheduled = sequence
      pending = sequence
      if writing { return .pending }
      writing = true
      self.owner = owner
      return .stages
    }

    func failure(of sequence: UInt64) -> PersistenceError? {
      guard sequence <= abandonedThrough else { return nil }
      for failure in failedWrites.reversed() where failure.sequences.contains(sequence) {
        return failure.error
      }
      return nil
    }

    func status(of sequence: UInt64) -> StoreStatus {
      if let failure = failure(of: sequence) { return .failed(failure) }
      if durable >= sequence { return .stored }
      if !writing, pending == 0 { return lastError.map(StoreStatus.failed) ?? .stored }
      return .pending
    }
  }

  /// What ``Progress/claim(_:owner:)`` made of a change.
  enum Claim {
    /// Older than a rollback or a newer change: not stored.
    case refused
    /// The pending state now; a write is staged or in flight already.
    case pending
    /// The pending state now, and the persister must stage itself (``stageWithSink()``).
    case stages
  }

  /// The changes (sequence numbers) a failed write took down, and why.
  struct FailedWrite {
    let sequences: ClosedRange<UInt64>
    let error: PersistenceError
  }

}
