import Foundation

/// Writes a bloc's latest state in the background and tells waiters when a change is stored.
///
/// Writes coalesce: the persister stages itself with its ``StateSink`` once, and the sink takes
/// the newest state when it writes; changes made meanwhile, or while that write is in flight,
/// replace each other, so a burst of changes costs few writes and every waiter is released by
/// the first write that covers its change. A journal takes the states of many blocs in one
/// batch.
///
/// A failed write is never retried with the same state: the bloc rolls its state back to the
/// last stored one (``BlocBase/rollBack(_:)``), and every change up to the rollback fails, so a change
/// refused once can never be stored later, and nobody is told of a state that is not stored.
@usableFromInline final class Persister<State: Sendable & Equatable>: StagedState {
  // Read and written by `claim` and `whenStored`, which are inlined into the client so that
  // the per-change path is specialised for the state type (no runtime metadata lookups).
  @usableFromInline struct Progress {
    @usableFromInline var pending: (sequence: UInt64, state: State)?
    /// The state taken for the write in flight (``takeForWrite()``), until it ends.
    var inFlight: (sequence: UInt64, state: State)?
    @usableFromInline var scheduled: UInt64 = 0
    /// Staged with the sink or being written: a newer state waits in `pending` meanwhile.
    @usableFromInline var writing = false
    @usableFromInline var durable: UInt64
    /// Changes at or below this sequence number were abandoned by a rollback: never written, never waited on.
    @usableFromInline var abandonedThrough: UInt64 = 0
    /// The sequence numbers each failed write took down (durable + 1 … rollback point), newest last.
    @usableFromInline var failedWrites: [FailedWrite] = []
    @usableFromInline var lastError: PersistenceError?
    @usableFromInline var waiters: [StoreWaiter] = []
    /// Every change not yet taken for a write, oldest first, when each is stored as a value of
    /// its own (``keepsEveryChange``): recorded under the bloc's lock, so in order.
    var backlog: [Recorded] = []
    /// The buffer stored values are written in, between writes (``takeForWrite()``).
    var scratch: [UInt8] = []
    /// What a write asks for besides the state, read with it.
    var hooks = WriteHooks()
    /// The bloc, held while a write is staged or in flight and only then: it is told of the
    /// write's result, and a bloc dropped meanwhile still has its last change stored. (The
    /// bloc holds its persister, so holding it always would be a cycle; a weak reference would
    /// give the bloc a side table, and every retain of the bloc would take the slow path.)
    @usableFromInline var owner: BlocBase<State>?

    init(durable: UInt64) { self.durable = durable }

    /// Nothing is staged or in flight any more: the bloc is let go of (return it, to release it
    /// outside the lock).
    mutating func endWriting() -> BlocBase<State>? {
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

    /// Makes `state` the pending one (``Persister/claim(_:sequence:owner:)``); true when the
    /// persister must stage itself.
    @inlinable mutating func claim(
      _ state: State, sequence: UInt64, owner: BlocBase<State>
    ) -> Bool {
      // A change racing a rollback that already covers it: it failed with the others.
      if sequence <= abandonedThrough { return false }
      // Never an older state after a newer one.
      if sequence <= scheduled { return false }
      scheduled = sequence
      pending = (sequence, state)
      if writing { return false }
      writing = true
      self.owner = owner
      return true
    }

    @inlinable func failure(of sequence: UInt64) -> PersistenceError? {
      guard sequence <= abandonedThrough else { return nil }
      for failure in failedWrites.reversed() where failure.sequences.contains(sequence) {
        return failure.error
      }
      return nil
    }
  }

  /// A change noted for the next write, with why and when it was made.
  struct Recorded {
    let sequence: UInt64
    let state: State
    let cause: ChangeCause
    let time: Int64

    @inlinable init(sequence: UInt64, state: State, cause: ChangeCause, time: Int64) {
      self.sequence = sequence
      self.state = state
      self.cause = cause
      self.time = time
    }
  }

  /// The changes (sequence numbers) a failed write took down, and why.
  @usableFromInline struct FailedWrite {
    @usableFromInline let sequences: ClosedRange<UInt64>
    @usableFromInline let error: PersistenceError
  }

  private let persistence: Persistence<State>
  @usableFromInline let progress: Locked<Progress>
  private let sink: any StateSink
  /// Whether every change is stored as a value of its own, with its cause and time (the
  /// storage keeps history: ``ChangeHistoryStorage``), rather than only the newest state of
  /// each write.
  let keepsEveryChange: Bool
  /// How many values the storage keeps per key (0: no history).
  let historyLimit: Int

  init(_ persistence: Persistence<State>, durable sequence: UInt64) {
    self.persistence = persistence
    self.progress = Locked(Progress(durable: sequence))
    self.sink = (persistence.storage as? any StateSink) ?? WriteThrough(persistence)
    historyLimit = (persistence.storage as? any ChangeHistoryStorage)?.historyLimit ?? 0
    keepsEveryChange = historyLimit > 0
  }

  /// Milliseconds since 1970 (UTC).
  static func now() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
  }

  /// The values the storage keeps for this bloc, oldest first.
  func retainedChanges() -> [Data] {
    (persistence.storage as? any ChangeHistoryStorage)?.history(persistence.key) ?? []
  }

  var schemaVersion: Int { persistence.schemaVersion }

  /// The state in a stored value (migrated when older).
  func decode(_ data: Data) throws -> State { try persistence.decodeStored(data).state }

  /// Makes `state`, the bloc `owner`'s change number `sequence`, the one the next write stores;
  /// true when the persister must now stage itself with the sink (``stageWithSink()``, outside the
  /// bloc's lock). Called under the bloc's lock (`BlocBase.apply`), so changes arrive in order, in
  /// one trip to this lock per change.
  @inlinable func claim(_ state: State, sequence: UInt64, owner: BlocBase<State>) -> Bool {
    progress.withLock { $0.claim(state, sequence: sequence, owner: owner) }
  }

  /// ``claim(_:sequence:owner:)``, and notes the change with its cause and the time now for
  /// the write that stores it (when ``keepsEveryChange``): one trip to the lock.
  @usableFromInline func recordAndClaim(
    _ state: State, sequence: UInt64, cause: ChangeCause, owner: BlocBase<State>
  ) -> Bool {
    let time = Self.now()
    return progress.withLock { progress in
      progress.backlog.append(Recorded(sequence: sequence, state: state, cause: cause, time: time))
      return progress.claim(state, sequence: sequence, owner: owner)
    }
  }

  /// Out of line: the sink sees the persister through a protocol this module keeps to itself.
  @usableFromInline func stageWithSink() { sink.stage(self) }

  /// The newest state, encoded, for the sink's next write; nil when a rollback dropped it.
  ///
  /// This runs unspecialised (the sink calls it through a protocol), so it keeps to plain
  /// indices on arrays: a generic collection algorithm here (`firstIndex`, `last`, a slice)
  /// goes through witness tables whose accessors allocate, once per write.
  func takeForWrite() -> StagedWrite? {
    var released: BlocBase<State>?  // let go of outside the lock
    var noted: (cause: ChangeCause, time: Int64)?
    var earlier: [Recorded] = []
    var bytes: [UInt8] = []
    var hooks = WriteHooks()
    let next = progress.withLock { progress -> (sequence: UInt64, state: State)? in
      guard let pending = progress.pending else {
        released = progress.endWriting()
        return nil
      }
      progress.pending = nil
      progress.inFlight = pending
      swap(&bytes, &progress.scratch)
      hooks = progress.hooks
      guard keepsEveryChange else { return pending }
      // Every change up to the newest goes into this write, each a value of its own: the
      // newest with the pending state, the others (when several changes share the write)
      // before it.
      var end = 0
      while end < progress.backlog.count, progress.backlog[end].sequence <= pending.sequence {
        end += 1
      }
      guard end > 0 else { return pending }
      let last = progress.backlog[end - 1]
      var olderEnd = end
      if last.sequence == pending.sequence {
        noted = (last.cause, last.time)
        olderEnd -= 1
      }
      if olderEnd > 0 { earlier = Array(progress.backlog[0..<olderEnd]) }
      if end == progress.backlog.count {
        progress.backlog.removeAll(keepingCapacity: true)
      } else {
        progress.backlog.removeSubrange(0..<end)
      }
      return pending
    }
    guard let (sequence, state) = next else {
      releaseLeftoverWaiters()
      withExtendedLifetime(released) {}
      return nil
    }
    let key = persistence.key
    do {
      // One buffer for every change of this write, kept from write to write (it comes back
      // with the write's end); each value is copied out of it once, into an array of its
      // exact size that the storage keeps.
      if bytes.capacity == 0 { bytes.reserveCapacity(256) }
      var before: [[UInt8]] = []
      if !earlier.isEmpty { before.reserveCapacity(earlier.count) }
      for old in earlier {
        bytes.removeAll(keepingCapacity: true)
        let recorded = StoredChange(sequence: old.sequence, cause: old.cause, time: old.time)
        _ = try persistence.encode(old.state, recorded, hooks.events, &bytes)
        before.append(Self.copy(bytes))
      }
      bytes.removeAll(keepingCapacity: true)
      let change = StoredChange(sequence: sequence, cause: noted?.cause, time: noted?.time)
      let json = try persistence.encode(state, change, hooks.events, &bytes)
      hooks.shareText?.share(sequence, bytes[json])
      let data = Self.copy(bytes)
      bytes.removeAll(keepingCapacity: true)
      return StagedWrite(key: key, data: data, earlier: before, source: self, buffer: bytes)
    } catch {
      finish(.writeFailed(key: key, reason: "\(error)"))
      return nil
    }
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
  func writeEnded(_ error: (any Error)?, buffer: [UInt8]) {
    finish(error.map { Self.failure(persistence.key, $0) }, scratch: buffer)
  }

  /// From now on `hook` sees each state's JSON as it is written for storage.
  func shareText(with hook: @escaping @Sendable (UInt64, ArraySlice<UInt8>) -> Void) {
    progress.withLock { $0.hooks.shareText = TextHook(share: hook) }
  }

  /// The bloc's events are `Event`s: written by a writer decided once (``EventWriter``).
  func writeEvents<Event>(of _: Event.Type) {
    let events = EventWriter.of(Event.self)
    progress.withLock { $0.hooks.events = events }
  }

  /// Waits until `sequence` (or a later one) is stored; returns the error if that write failed.
  func waitUntilStored(_ sequence: UInt64) async -> PersistenceError? {
    await withCheckedContinuation { continuation in
      whenStored(sequence) { continuation.resume(returning: $0) }
    }
  }

  /// Calls `body` once `sequence` (or a later one) is stored, with the error if its write
  /// failed: at once if that is known, else from the writer. No task is needed.
  @inlinable
  func whenStored(_ sequence: UInt64, _ body: @escaping @Sendable (PersistenceError?) -> Void) {
    let ready: PersistenceError?? = progress.withLock { progress in
      if let failure = progress.failure(of: sequence) { return .some(failure) }
      if progress.durable >= sequence { return .some(nil) }
      if !progress.writing, progress.pending == nil { return .some(progress.lastError) }
      progress.waiters.append(StoreWaiter(sequence: sequence, notify: body))
      return nil
    }
    if let ready { body(ready) }
  }

  /// What ``whenStored(_:_:)`` would call back with now, without waiting: `sequence` (or a
  /// later change) stored, its write failed, or still on its way.
  func status(of sequence: UInt64) -> StoreStatus {
    progress.withLock { progress in
      if let failure = progress.failure(of: sequence) { return .failed(failure) }
      if progress.durable >= sequence { return .stored }
      if !progress.writing, progress.pending == nil {
        return progress.lastError.map(StoreStatus.failed) ?? .stored
      }
      return .pending
    }
  }

  /// Gives up every change up to `sequence` after a failed write: the pending state (built on
  /// the failed one) is dropped and their waiters fail with `error`. Called by the bloc, under
  /// its lock, while it restores the last stored state.
  func abandon(through sequence: UInt64, _ error: PersistenceError) -> [StoreWaiter] {
    progress.withLock { progress in
      guard sequence > progress.abandonedThrough else { return [] }
      if let pending = progress.pending, pending.sequence <= sequence { progress.pending = nil }
      progress.backlog.removeAll { $0.sequence <= sequence }
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

  /// Removes the stored value (``BlocBase/clearStoredState()``).
  func removeStored() throws {
    do {
      try persistence.storage.remove(persistence.key)
    } catch {
      throw Self.failure(persistence.key, error)
    }
  }

  /// The write in flight ended (failed when `failure` is set); `scratch`: its buffer, kept for
  /// the next write.
  private func finish(_ failure: PersistenceError?, scratch: [UInt8] = []) {
    let (owner, written) = progress.withLock { progress in
      if scratch.capacity > progress.scratch.capacity { progress.scratch = scratch }
      defer { progress.inFlight = nil }
      return (progress.owner, progress.inFlight)
    }
    // Set by `takeForWrite`, in the trip that took the state, before its write can end.
    guard let (sequence, state) = written else { return }
    if let failure {
      progress.withLock { $0.lastError = failure }
      owner?.reportError(failure)
      // The bloc abandons every change it has (this one included) and releases their waiters.
      if let owner {
        owner.rollBack(failure)
      } else {
        for waiter in abandon(through: sequence, failure) { waiter.notify(failure) }
      }
    } else {
      // Shown as stored before anyone can learn it is: a waiter released (here, or by a
      // `whenStored` racing this) must find the stored state already showing it.
      owner?.publishStored(sequence, state)
      var released: BlocBase<State>?  // let go of outside the lock
      // One trip to the lock: the write's waiters, and whether a state came meanwhile (for
      // the sink's next write) or the persister is done writing (then whoever still waits,
      // for a change never scheduled, learns this write's result).
      let (ready, again) = progress.withLock { progress -> ([StoreWaiter], Bool) in
        progress.lastError = nil
        progress.durable = max(progress.durable, sequence)
        var ready = progress.takeWaiters(through: sequence)
        if progress.pending != nil { return (ready, true) }
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
    var released: BlocBase<State>?  // let go of outside the lock
    let again = progress.withLock { progress -> Bool in
      if progress.pending != nil { return true }
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
      guard !progress.writing, progress.pending == nil else { return ([], nil) }
      let left = progress.waiters
      progress.waiters = []
      return (left, progress.lastError)
    }
    for waiter in left { waiter.notify(error) }
  }

  private static func failure(_ key: String, _ error: any Error) -> PersistenceError {
    error as? PersistenceError ?? .writeFailed(key: key, reason: String(describing: error))
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

/// Someone waiting until `sequence` is stored (not nested in the generic ``Persister``, so that
/// arrays of them need no runtime metadata lookup in unspecialised code).
@usableFromInline struct StoreWaiter: Sendable {
  @usableFromInline let sequence: UInt64
  @usableFromInline let notify: @Sendable (PersistenceError?) -> Void

  @inlinable init(sequence: UInt64, notify: @escaping @Sendable (PersistenceError?) -> Void) {
    self.sequence = sequence
    self.notify = notify
  }
}
