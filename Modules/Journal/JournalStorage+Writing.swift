import BlocCore
import Dispatch
import Foundation
import JournalLinks

#if canImport(Glibc)
  import Glibc
#endif

/// Appending to the journal: batches taken from the queue and written (and synced) in order,
/// one writer at a time, by whichever thread starts writing.
extension JournalStorage {
  /// A bloc's persister has a state to store: its newest goes into the next batch.
  package func stage(_ source: any StagedState) {
    let start = queue.withLock { batch -> Bool in
      batch.staged.append(source)
      return batch.startsWriting(held: holds.load(ordering: .relaxed) > 0)
    }
    if start { writer.async { self.writeBatches() } }
  }

  func appendAndWait(_ changes: [(key: String, value: [UInt8]?)]) throws {
    let done = DispatchSemaphore(value: 0)
    let result = Locked<(any Error)?>(nil)
    // Not held by an open batch: its caller may be the one that would commit it.
    append(changes, evenIfHeld: true) { error in
      result.withLock { $0 = error }
      done.signal()
    }
    done.wait()
    if let error = result.withLock({ $0 }) { throw error }
  }

  func append(
    _ changes: [(key: String, value: [UInt8]?)], evenIfHeld: Bool = false,
    _ completion: @escaping @Sendable ((any Error)?) -> Void
  ) {
    let start = queue.withLock { batch -> Bool in
      for change in changes { batch.add(change.key, change.value) }
      batch.completions.append(completion)
      return batch.startsWriting(held: !evenIfHeld && holds.load(ordering: .relaxed) > 0)
    }
    if start { writer.async { self.writeBatches() } }
  }

  /// Writes batches until none is waiting, from `first` (already taken) when given:
  /// everything appended while one is written goes into the next.
  ///
  /// - Parameter gathering: on the writer's thread under `.always`: before each next sync,
  ///   wait for the clients the last one served (``gatherClients(_:withinNanoseconds:)``).
  func writeBatches(_ first: consuming Batch? = nil, gathering: Bool = false) {
    // The batch last written, emptied, handed back for the next one to fill: a batch's lists
    // are allocated once, not per batch.
    var written: Batch?
    // The clients the last batch served, and how long its write and sync took. In plain
    // nanoseconds of DispatchTime: ContinuousClock's instants (of a resilient type, an
    // optional one here) cost about 100 instructions per batch through value witnesses even
    // when the clock is not read.
    var served = 0
    var syncNanoseconds: UInt64 = 0
    while true {
      if gathering, served > 1 {
        gatherClients(served, withinNanoseconds: min(syncNanoseconds / 2, 2_000_000))
      }
      let taken =
        first.take()
        ?? queue.withLock { batch -> Batch? in
          guard !batch.isEmpty else {
            batch.writing = false
            batch.recycle(&written)
            return nil
          }
          return batch.take(recycling: &written)
        }
      written = nil
      guard var batch = consume taken else { return }
      for source in batch.staged {
        let key = source.key
        do {
          if !batch.validKeys.contains(key) {
            try Self.validate(key)
            if batch.validKeys.count < Batch.validKeysKept { batch.validKeys.append(key) }
          }
        } catch {
          var discarded = StagedValues()
          if source.takeForWrite(into: &discarded) { source.writeEnded(error) }
          continue
        }
        _ = batch.take(source, key: key)
      }
      guard !batch.completions.isEmpty || !batch.taken.isEmpty else { continue }
      // The clock is read only by a writer that gathers (the deferred loop never does).
      let started = gathering ? DispatchTime.now().uptimeNanoseconds : 0
      let (error, due) = writeBatch(batch)
      if gathering {
        served = batch.connections
        syncNanoseconds = DispatchTime.now().uptimeNanoseconds &- started
      }
      if error == nil {
        kept.withLock {
          $0.keep(
            batch.runs, batch.records.values, batch.records.bytes, history: limits.history)
        }
      }
      for completion in batch.completions { completion(error) }
      for source in batch.taken { source.writeEnded(error) }
      if due.compaction { compactIfDue() }
      // After the batch's completions: its replies are not held up by the zeros.
      if due.zeros { zeroAheadIfDue() }
      batch.empty()
      written = consume batch
    }
  }

  /// Waits until `clients` have committed turns since the last batch was taken, or for
  /// `limit`. A sync's clients get their replies when it ends and come back with their next
  /// writes a moment later; a writer that started the next sync at once would leave them to
  /// the one after, and the clients would split into groups that take turns, each sync
  /// serving about half of them (MySQL's `binlog_group_commit_sync_no_delay_count` waits
  /// likewise). Bounded by half the last sync's time: a client that does not come back costs
  /// at most that. The commit that brings the last of them wakes the writer at once (it used
  /// to look every 20 µs, which the kernel's timer slack made every 70 µs or so).
  func gatherClients(_ clients: Int, withinNanoseconds limit: UInt64) {
    let waits = queue.withLock { batch -> Bool in
      guard batch.connections < clients else { return false }
      batch.awaited = clients
      return true
    }
    guard waits else { return }
    guard gathered.wait(timeout: .now() + .nanoseconds(Int(limit))) == .timedOut else {
      return
    }
    // Timed out: no commit wakes it any more, unless one did just now, whose signal is taken
    // back here so that the next wait does not end at once.
    let signalled = queue.withLock { batch -> Bool in
      defer { batch.awaited = 0 }
      return batch.awaited == 0
    }
    if signalled { gathered.wait() }
  }

  /// Appends `batch` (and with `.always` syncs it); also tells, from the same trip to the
  /// file's lock, whether the journal is now due for compaction (``compactIfDue()``) and for
  /// more zeros ahead (``zeroAheadIfDue()``).
  func writeBatch(
    _ batch: Batch
  ) -> (error: (any Error)?, due: BatchEffects) {
    file.withLock { journal -> ((any Error)?, BatchEffects) in
      // For error messages only: not built for a batch that is written.
      func name() -> String { path + "/" + JournalFiles.journalName(journal.generation) }
      do {
        if journal.closed { throw JournalFiles.FileError(description: "the journal is closed") }
        if journal.lookDue || syncPolicy == .always { try reopenIfGone(&journal) }
        if !journal.damagedTails.isEmpty { try setAsideDamagedTails(&journal) }
        if journal.needsHeader { try writeHeader(&journal) }
        if journal.needsCut {
          guard ftruncate(journal.fd, off_t(journal.length)) == 0 else {
            throw JournalFiles.failure("cannot cut a failed write from", name())
          }
          journal.needsCut = false
          journal.zeroed = journal.length
        }
        do {
          try batch.records.bytes.withUnsafeBytes {
            try JournalFiles.write(journal.fd, $0, at: journal.length, path: name())
          }
          if syncPolicy == .always { try JournalFiles.syncData(journal.fd, path: name()) }
        } catch {
          // Part of the batch may be in the file: it must never be read back.
          journal.needsCut = ftruncate(journal.fd, off_t(journal.length)) != 0
          journal.zeroed = journal.length
          throw error
        }
        journal.length += batch.records.bytes.count
        journal.records += batch.recordCount
        journal.batches += 1
        if syncPolicy == .deferred {
          journal.dirty = true
          journal.appendedSinceLook = true
        }
        let due = BatchEffects(
          compaction: isDueForCompaction(journal), zeros: isDueForZeros(journal))
        return (nil, due)
      } catch {
        let failure = PersistenceError.writeFailed(
          key: batch.runs.map(\.key).uniqued().joined(separator: ","),
          reason: String(describing: error))
        return (failure, BatchEffects())
      }
    }
  }

  /// What a written batch leaves due, told from the same trip to the file's lock.
  struct BatchEffects {
    var compaction = false
    var zeros = false
  }

  /// When the journal file was deleted (the state directory removed), writing on would store
  /// nothing: start afresh in the (re-created) directory from the values in memory.
  /// Asks for the link count alone (JournalLinks.h says why not fstat).
  func reopenIfGone(_ journal: inout OpenJournal) throws {
    let links = journal_link_count(journal.fd)
    guard links >= 0 else { throw JournalFiles.failure("cannot stat", path) }
    guard links == 0 else {
      journal.lookDue = false
      journal.appendedSinceLook = false
      return
    }
    try FileManager.default.createDirectory(
      atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let next = journal.generation + 1
    try JournalFiles.writeAtomically(
      Self.snapshotBytes(kept.withLock { $0 }), directory: path,
      name: JournalFiles.snapshotName(journal.generation),
      temporary: JournalFiles.temporarySnapshotName(journal.generation))
    let fd = try JournalFiles.createJournal(directory: path, generation: next)
    JournalFiles.closeFile(journal.fd)
    journal = OpenJournal(
      fd: fd, generation: next, length: JournalFormat.headerSize, records: 0,
      lookDue: false, damagedTails: journal.damagedTails)
    log(
      "the journal file was deleted (state directory removed?); rewrote the stored states into \(path)"
    )
  }
}

extension Array where Element: Hashable {
  fileprivate func uniqued() -> [Element] {
    var seen = Set<Element>()
    return filter { seen.insert($0).inserted }
  }
}
