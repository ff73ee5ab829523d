import BlocCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The open journal behind its lock, and the numbers ``JournalStorage/status`` shows of it,
/// published each time the lock is let go. `status` (a daemon's `info`, answered on its event
/// loop) reads them without the lock, so it never waits behind a batch's write and sync, which
/// hold the lock and under `.always` take as long as the disk's slowest sync (seen here up to
/// 275 ms: every client of the loop would wait as long).
struct JournalFile: Sendable {
  private let open: Locked<JournalStorage.OpenJournal>
  private let shown = ShownJournal()

  init(_ journal: JournalStorage.OpenJournal) {
    open = Locked(journal)
    shown.publish(journal)
  }

  /// Runs `body` with the open journal, alone; what it changed is shown from then on.
  func withLock<Result>(
    _ body: (inout JournalStorage.OpenJournal) throws -> Result
  ) rethrows -> Result {
    try open.withLock { journal in
      defer { shown.publish(journal) }
      return try body(&journal)
    }
  }

  /// The numbers as the last trip to the lock left them: never waits for the one under way.
  var numbers: ShownJournal.Numbers { shown.read() }
}

/// The journal's numbers for ``JournalStorage/status``, in atomics behind a sequence count
/// (a seqlock): published by the one holder of the file's lock, read by anyone without a lock,
/// each read a set published together (never a length from one batch and a count from another).
final class ShownJournal: Sendable {
  struct Numbers: Equatable {
    var generation: UInt64
    var length: Int
    var records: Int
    var batches: Int
    var compacting: Bool
  }

  /// Odd while a publication is under way; counts them.
  private let sequence = Atomic<UInt64>(0)
  private let generation = Atomic<UInt64>(0)
  private let length = Atomic<Int>(0)
  private let records = Atomic<Int>(0)
  private let batches = Atomic<Int>(0)
  private let compacting = Atomic<Bool>(false)

  /// Under the file's lock, so one publisher at a time.
  func publish(_ journal: JournalStorage.OpenJournal) {
    let now = sequence.load(ordering: .relaxed)
    sequence.store(now &+ 1, ordering: .relaxed)
    // The odd count is seen before any of the new numbers.
    atomicMemoryFence(ordering: .releasing)
    generation.store(journal.generation, ordering: .relaxed)
    length.store(journal.length, ordering: .relaxed)
    records.store(journal.records, ordering: .relaxed)
    batches.store(journal.batches, ordering: .relaxed)
    compacting.store(journal.compacting, ordering: .relaxed)
    sequence.store(now &+ 2, ordering: .releasing)
  }

  /// The last numbers published; tries again while a publication (a few stores) is under way.
  func read() -> Numbers {
    var tries = 0
    while true {
      let before = sequence.load(ordering: .acquiring)
      let numbers = Numbers(
        generation: generation.load(ordering: .relaxed), length: length.load(ordering: .relaxed),
        records: records.load(ordering: .relaxed), batches: batches.load(ordering: .relaxed),
        compacting: compacting.load(ordering: .relaxed))
      // The numbers are read before the count is read again.
      atomicMemoryFence(ordering: .acquiring)
      if before & 1 == 0, sequence.load(ordering: .relaxed) == before { return numbers }
      tries += 1
      // A publisher stopped between its stores (preempted): let it run.
      if tries % 64 == 0 { sched_yield() }
    }
  }
}
