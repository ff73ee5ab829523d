import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Keeping the journal durable and short: the deferred sync once a second, and compaction into
/// snapshots.
extension JournalStorage {
  /// With `.deferred`: syncs what was written, once a second, on the writer queue, until
  /// closed.
  func scheduleDeferredSync() {
    writer.asyncAfter(deadline: .now() + 1) { [weak self] in
      guard let self, !self.file.withLock({ $0.closed }) else { return }
      self.syncNow()
      self.scheduleDeferredSync()
    }
  }

  /// Syncs what was written so far (`.deferred`), outside the file's lock: a loop's turn
  /// writes its batch on its own thread under that lock, and would wait for the whole sync (a
  /// second of writes), every client of the loop with it, as Redis's main thread does not wait
  /// for its background fsync. The sync goes through a duplicate of the descriptor, which stays
  /// open if the journal switches files meanwhile (compaction syncs the old file before it
  /// switches); a batch written during the sync marks the journal dirty again, for the next.
  /// Without a descriptor to spare (the process at its limit), it syncs under the lock.
  func syncNow() {
    let sync = file.withLock { journal -> (fd: Int32, name: String)? in
      journal.lookDue = true
      guard journal.dirty, journal.fd >= 0 else { return nil }
      let name = path + "/" + JournalFiles.journalName(journal.generation)
      let duplicate = fcntl(journal.fd, F_DUPFD_CLOEXEC, 0)
      guard duplicate >= 0 else {
        journal.dirty = !synced(journal.fd, name)
        return nil
      }
      journal.dirty = false
      return (duplicate, name)
    }
    guard let sync else { return }
    defer { JournalFiles.closeFile(sync.fd) }
    if !synced(sync.fd, sync.name) { file.withLock { $0.dirty = true } }
  }

  /// Syncs the journal open as `fd` (`name`, for the message); false, told to the log, when
  /// that failed: the next second's sync tries again.
  private func synced(_ fd: Int32, _ name: String) -> Bool {
    do {
      try JournalFiles.syncData(fd, path: name)
      return true
    } catch {
      log("\(error); retrying in a second")
      return false
    }
  }

  /// Starts a new journal and snapshots the values in the background once the journal is over
  /// its limits. Runs where the batch was written (the writer queue, or the thread that
  /// committed it), between batches.
  func compactIfDue() {
    let due = file.withLock {
      journal -> (UInt64, KeptValues)? in
      guard isDueForCompaction(journal) else { return nil }
      let name = path + "/" + JournalFiles.journalName(journal.generation)
      do {
        if syncPolicy == .deferred { try JournalFiles.syncData(journal.fd, path: name) }
        let fd = try JournalFiles.createJournal(directory: path, generation: journal.generation + 1)
        JournalFiles.closeFile(journal.fd)
        let finished = journal.generation
        journal = OpenJournal(
          fd: fd, generation: finished + 1, length: JournalFormat.headerSize, records: 0)
        journal.compacting = true
        // The values as of the end of the finished journal (the writer has applied them all).
        return (finished, kept.withLock { $0 })
      } catch {
        log("cannot start a new journal for compaction: \(error); will retry")
        journal.records = 0  // retry after another `limits` worth
        return nil
      }
    }
    guard let (finished, snapshot) = due else { return }
    compactor.async {
      do {
        try JournalFiles.writeAtomically(
          Self.snapshotBytes(snapshot), directory: self.path,
          name: JournalFiles.snapshotName(finished),
          temporary: JournalFiles.temporarySnapshotName(finished))
        for generation in (0...finished).reversed() {
          let journal = self.path + "/" + JournalFiles.journalName(generation)
          if unlink(journal) != 0 && errno == ENOENT && generation < finished { break }
        }
        for generation in (0..<finished).reversed() {
          let snapshot = self.path + "/" + JournalFiles.snapshotName(generation)
          if unlink(snapshot) != 0 && errno == ENOENT { break }
        }
      } catch {
        self.log("cannot write a snapshot: \(error); the journals are kept and replayed instead")
      }
      self.file.withLock { $0.compacting = false }
    }
  }

  /// Whether `journal` is over its ``Limits`` and not being compacted already. (A damaged end
  /// still in a journal is not deleted with it: not then.)
  func isDueForCompaction(_ journal: OpenJournal) -> Bool {
    !journal.compacting && journal.damagedTails.isEmpty
      && (journal.records >= limits.records || journal.length >= limits.bytes)
  }

  /// Every key's value; a key with retained history has its retained values first, oldest
  /// first, and its value last (the last put of a key is its value).
  static func snapshotBytes(_ kept: KeptValues) -> [UInt8] {
    var bytes = JournalFormat.snapshotMagic
    for (key, value) in kept.values.sorted(by: { $0.key < $1.key }) {
      let history = kept.retained[key]?.values ?? []
      for old in history.dropLast() {
        JournalFormat.append(.put, key: key, value: old, to: &bytes)
      }
      if let newest = history.last, !newest.elementsEqual(value) {
        JournalFormat.append(.put, key: key, value: newest, to: &bytes)
      }
      JournalFormat.append(.put, key: key, value: value[...], to: &bytes)
    }
    JournalFormat.append(.end, key: "", value: nil, to: &bytes)
    return bytes
  }
}
