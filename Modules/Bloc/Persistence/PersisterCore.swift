import Foundation

/// What a bloc's persister knows whatever its state's type: where its writes are (pending, in
/// flight, stored, failed), who waits for them, and the buffer its records are written in.
///
/// Writes coalesce: the persister stages itself with its ``StateSink`` once, and the sink takes
/// the newest state when it writes; changes made meanwhile, or while that write is in flight,
/// replace each other, so a burst of changes costs few writes and every waiter is released by
/// the first write that covers its change. A journal takes the states of many blocs in one
/// batch.
///
/// A failed write is never retried with the same state: the bloc rolls its state back to the
/// last stored one (``BlocBase/rollBack(_:)``), and every change up to the rollback fails, so a
/// change refused once can never be stored later, and nobody is told of a state that is not
/// stored.
///
/// Only the steps that hold, write or show a state are the generic ``Persister``'s (its
/// overrides); everything else is here, not generic, so that the sink's calls (through
/// ``StagedState``), the server's status questions and the write's end run no unspecialised
/// generic code: no runtime metadata lookups, whatever module calls them.
// @unchecked: every mutable field, the subclass' too, is touched under `progress`'s lock (or,
// for the states of the write in flight, by that write alone: see `Persister`).
@usableFromInline class PersisterCore: StagedState, @unchecked Sendable {
  struct Progress {
    /// The sequence number of the state the next write stores (the subclass holds the state);
    /// 0: none (changes are numbered from 1).
    var pending: UInt64 = 0
    /// The sequence number of the state taken for the write in flight; 0: none.
    var inFlight: UInt64 = 0
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
    var backlog: [Noted] = []
    /// The buffer stored values are written in, between writes (``takeForWrite()``).
    var scratch: [UInt8] = []
    /// What a write asks for besides the state, read with it.
    var hooks = WriteHooks()
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

  /// A change noted for the next write, with why and when it was made (its state is the
  /// subclass').
  struct Noted {
    let sequence: UInt64
    let cause: ChangeCause
    let time: Int64
  }

  /// The changes (sequence numbers) a failed write took down, and why.
  struct FailedWrite {
    let sequences: ClosedRange<UInt64>
    let error: PersistenceError
  }

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

  let progress: Locked<Progress>
  let key: String
  private let sink: any StateSink
  /// Whether every change is stored as a value of its own, with its cause and time (the
  /// storage keeps history: ``ChangeHistoryStorage``), rather than only the newest state of
  /// each write.
  let keepsEveryChange: Bool
  /// How many values the storage keeps per key (0: no history).
  let historyLimit: Int

  init(key: String, sink: any StateSink, historyLimit: Int, durable sequence: UInt64) {
    self.key = key
    self.sink = sink
    self.historyLimit = historyLimit
    keepsEveryChange = historyLimit > 0
    progress = Locked(Progress(durable: sequence))
  }

  /// Milliseconds since 1970 (UTC).
  static func now() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
  }

  // MARK: The subclass' part (the state's type)

  /// Under the lock: the pending state becomes the one in flight, and the states of the first
  /// `count` changes of the backlog go, the first `earlier` of them kept for the write.
  func takeStates(backlog count: Int, earlier: Int) { fatalError("abstract") }

  /// Under the lock: the states of the first `count` changes of the backlog go (a rollback).
  func dropStates(backlog count: Int) { fatalError("abstract") }

  /// Appends the stored text of a state taken (``takeStates(backlog:earlier:)``) to `bytes`:
  /// the one in flight, or (`earlier`) one of the changes before it, by their order; returns
  /// where the state's own JSON lies in `bytes`.
  func encode(
    earlier: Int?, _ change: StoredChange, _ events: EventWriter?, into bytes: inout [UInt8]
  ) throws -> Range<Int> { fatalError("abstract") }

  /// The write in flight stored change `sequence`: `owner` (the bloc) shows it.
  func stored(_ sequence: UInt64, owner: AnyObject) { fatalError("abstract") }

  /// The write in flight failed: `owner` (the bloc) reports it and rolls back.
  func failed(_ failure: PersistenceError, owner: AnyObject) { fatalError("abstract") }

  // MARK: Writing

  /// Out of line: the sink sees the persister through a protocol this module keeps to itself.
  @usableFromInline final func stageWithSink() { sink.stage(self) }

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

  static func failure(_ key: String, _ error: any Error) -> PersistenceError {
    error as? PersistenceError ?? .writeFailed(key: key, reason: String(describing: error))
  }

  // MARK: Hooks

  /// From now on `hook` sees each state's JSON as it is written for storage.
  final func shareText(with hook: @escaping @Sendable (UInt64, ArraySlice<UInt8>) -> Void) {
    progress.withLock { $0.hooks.shareText = TextHook(share: hook) }
  }

  /// The bloc's events are `Event`s: written by a writer decided once (``EventWriter``).
  final func writeEvents<Event>(of _: Event.Type) {
    let events = EventWriter.of(Event.self)
    progress.withLock { $0.hooks.events = events }
  }

  // MARK: Waiting

  /// Waits until `sequence` (or a later one) is stored; returns the error if that write failed.
  final func waitUntilStored(_ sequence: UInt64) async -> PersistenceError? {
    await withCheckedContinuation { continuation in
      whenStored(sequence) { continuation.resume(returning: $0) }
    }
  }

  /// Calls `body` once `sequence` (or a later one) is stored, with the error if its write
  /// failed: at once if that is known, else from the writer. No task is needed.
  @usableFromInline final func whenStored(
    _ sequence: UInt64, _ body: @escaping @Sendable (PersistenceError?) -> Void
  ) {
    let ready: PersistenceError?? = progress.withLock { progress in
      if let failure = progress.failure(of: sequence) { return .some(failure) }
      if progress.durable >= sequence { return .some(nil) }
      if !progress.writing, progress.pending == 0 { return .some(progress.lastError) }
      progress.waiters.append(StoreWaiter(sequence: sequence, notify: body))
      return nil
    }
    if let ready { body(ready) }
  }

  /// What ``whenStored(_:_:)`` would call back with now, without waiting: `sequence` (or a
  /// later change) stored, its write failed, or still on its way.
  final func status(of sequence: UInt64) -> StoreStatus {
    progress.withLock { $0.status(of: sequence) }
  }

  /// Gives up every change up to `sequence` after a failed write: the pending state (built on
  /// the failed one) is dropped and their waiters fail with `error`. Called by the bloc, under
  /// its lock, while it restores the last stored state.
  final func abandon(through sequence: UInt64, _ error: PersistenceError) -> [StoreWaiter] {
    progress.withLock { progress in
      guard sequence > progress.abandonedThrough else { return [] }
      if progress.pending != 0, progress.pending <= sequence { progress.pending = 0 }
      // The backlog is in order: what goes is a prefix.
      var end = 0
      while end < progress.backlog.count, progress.backlog[end].sequence <= sequence { end += 1 }
      if end > 0 {
        progress.backlog.removeSubrange(0..<end)
        dropStates(backlog: end)
      }
      let first = max(progress.durable, progress.abandonedThrough) + 1
      if first <= sequence {
        // Consecutive failed writes with nothing stored between them share one range.
        if let last = progress.failedWrites.last,
          last.sequences.upperBound == progress.abandonedThrough,
          last.sequences.lowerBound > progress.durable
        {
          progress.failedWrites[progress.failedWrites.count - 1] = FailedWrite(
            sequences: last.sequences.lowerBound...sequence, error: error)
        } else {
          progress.failedWrites.append(FailedWrite(sequences: first...sequence, error: error))
          if progress.failedWrites.count > 256 { progress.failedWrites.removeFirst() }
        }
      }
      progress.abandonedThrough = sequence
      return progress.takeWaiters(through: sequence)
    }
  }
}

/// What a persister's write asks for besides the state: who sees each state's JSON as it is
/// written for storage, and the writer of the bloc's events. Closures in structs: a bare
/// optional closure read through a lock's `inout` would be re-wrapped in a thunk on every
/// read, each wrapping the last.
struct WriteHooks {
  var shareText: TextHook?
  var events: EventWriter?
}

struct TextHook {
  let share: @Sendable (UInt64, ArraySlice<UInt8>) -> Void
}

/// Someone waiting until `sequence` is stored.
struct StoreWaiter: Sendable {
  let sequence: UInt64
  let notify: @Sendable (PersistenceError?) -> Void
}
