import Foundation

/// What a bloc's persister knows whatever its state's type: where its writes are (pending, in
/// flight, stored, failed), who waits for them, and what the write in flight took.
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
///
/// Its progress is guarded by the bloc's own lock (the core's mutex, reached through
/// ``StoredSlot``), not a lock of its own: a change reaches the persister under the bloc's
/// lock already, and a write's end shows the stored state and counts it as stored in one trip.
/// Not recursive: the methods called under the bloc's lock (a change's claim, a rollback's
/// ``abandon(through:_:)``) say so and take no lock.
class PersisterCore: StagedState,
  @unchecked Sendable  // every field, the subclass' too, under the bloc's lock (`slot.mutex`)
{
  /// The bloc's lock and stored state (``StoredSlot``).
  let slot: StoredSlot
  /// Under the bloc's lock (``withProgress(_:)``). Unchecked: the lock guarantees exclusive
  /// access, which the run-time checks (a runtime call per access) would check again.
  @exclusivity(unchecked) final var progress: Progress
  let key: String
  private let sink: any StateSink
  /// Whether every change is stored as a value of its own, with its cause and time (the
  /// storage keeps history: ``ChangeHistoryStorage``), rather than only the newest state of
  /// each write.
  let keepsEveryChange: Bool
  /// How many values the storage keeps per key (0: no history).
  let historyLimit: Int
  /// What the write in flight took (``Taken``): by that write alone. Unchecked: a class's
  /// stored variable is checked for exclusive access at run time on every access (a runtime
  /// call and a thread-local lookup, about 120 instructions a pair), which the one write in
  /// flight already guarantees.
  @exclusivity(unchecked) final var taken = Taken()

  init(
    key: String, sink: any StateSink, historyLimit: Int, durable sequence: UInt64,
    slot: StoredSlot
  ) {
    self.key = key
    self.sink = sink
    self.historyLimit = historyLimit
    self.slot = slot
    keepsEveryChange = historyLimit > 0
    progress = Progress(durable: sequence)
  }

  /// Runs `body` with the progress, under the bloc's lock: for a caller that does not hold it.
  @inline(__always)
  final func withProgress<Result>(_ body: (inout Progress) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(slot.mutex)
    defer { pthread_mutex_unlock(slot.mutex) }
    return try body(&progress)
  }

  /// Milliseconds since 1970 (UTC).
  static func now() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
  }

  // MARK: The subclass' part (the state's type)

  /// Under the lock: the pending state becomes the one in flight, and the states of the first
  /// `count` changes of the backlog are taken for the write (``Taken/changes``).
  func takeStates(backlog count: Int) { fatalError("abstract") }

  /// Under the lock: the states of the first `count` changes of the backlog go (a rollback).
  func dropStates(backlog count: Int) { fatalError("abstract") }

  /// Appends the stored text of a state taken (``takeStates(backlog:)``) to `bytes`: the one
  /// in flight, or (`earlier`) the state of change `earlier` of ``Taken/changes``; returns
  /// where the state's own JSON lies in `bytes`.
  func encode(
    earlier: Int?, _ change: StoredChange, _ events: OwnJSON?, into bytes: inout [UInt8]
  ) throws -> Range<Int> { fatalError("abstract") }

  /// Under the bloc's lock: the write in flight stored change `sequence`, which the bloc shows
  /// as its stored state from now on; true when the bloc has listeners to tell
  /// (``tellListeners(_:owner:)``).
  func publish(_ sequence: UInt64) -> Bool { fatalError("abstract") }

  /// Outside the lock, before another write can be taken: `owner` (the bloc) tells its
  /// listeners of the state the write in flight stored.
  func tellListeners(_ sequence: UInt64, owner: AnyObject) { fatalError("abstract") }

  /// The write in flight failed: `owner` (the bloc) reports it and rolls back.
  func failed(_ failure: PersistenceError, owner: AnyObject) { fatalError("abstract") }

  // MARK: Writing

  /// Out of line: the sink sees the persister through a protocol this module keeps to itself.
  final func stageWithSink() { sink.stage(self) }

  static func failure(_ key: String, _ error: any Error) -> PersistenceError {
    error as? PersistenceError ?? .writeFailed(key: key, reason: String(describing: error))
  }

  // MARK: Hooks

  /// From now on each state written for storage has its JSON kept, once stored, with the
  /// progress (``storedText``): for a host showing states as JSON, which then takes those bytes
  /// in the same trip to the lock as where the changes stand, instead of writing the state a
  /// second time.
  final func keepStoredText() {
    withProgress {
      $0.hooks.keepsText = true
      $0.hooks.generation &+= 1
    }
  }

  /// The bloc's events are `Event`s: written by themselves when they can (``OwnJSON``).
  final func writeEvents<Event>(of _: Event.Type) {
    let events = OwnJSON.of(Event.self)
    withProgress {
      $0.hooks.events = events
      $0.hooks.generation &+= 1
    }
  }
}

/// What a persister's write asks for besides the state: whether it keeps the state's JSON
/// (``PersisterCore/keepStoredText()``), and the writer of the bloc's events.
struct WriteHooks {
  var keepsText = false
  var events: OwnJSON?
  /// Counts the changes to the hooks (set once or twice per bloc): a write takes them again only
  /// when they changed, not each time (copying them costs retains and outlined copies).
  var generation: UInt64 = 0
}
