import BlocCore
import Dispatch
import Foundation

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
      return batch.startsWriting()
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
      return batch.startsWriting(evenIfHeld: evenIfHeld)
    }
    if start { writer.async { self.writeBatches() } }
  }

  /// Writes batches until none is waiting: everything appended while one is written goes
  /// into the next.
  func writeBatches() {
    // The batch last written, emptied, handed back for the next one to fill: a batch's lists
    // are allocated once, not per batch.
    var written: Batch?
    while true {
      let taken = queue.withLock { batch -> Batch? in
        guard !batch.isEmpty else {
          batch.writing = false
          if let written { batch.recycle(written) }
          return nil
        }
        return batch.take(recycling: written)
      }
      written = nil
      guard var batch = taken else { return }
      for source in batch.staged {
        let key = source.key
        do {
          try Self.validate(key)
        } catch {
          var discarded = StagedValues()
          if source.takeForWrite(into: &discarded) { source.writeEnded(error) }
          continue
        }
        _ = batch.take(source, key: key)
      }
      guard !batch.completions.isEmpty || !batch.taken.isEmpty else { continue }
      let error = writeBatch(batch)
      if error == nil {
        keep(batch.changes, batch.records.bytes)
        if limits.history > 0 { retain(batch.changes, batch.records.bytes) }
      }
      for completion in batch.completions { completion(error) }
      for source in batch.taken { source.writeEnded(error) }
      if error == nil { compactIfDue() }
      batch.empty()
      written = batch
    }
  }

  func writeBatch(_ batch: Batch) -> (any Error)? {
    file.withLock { journal -> (any Error)? in
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
        }
        do {
          try batch.records.bytes.withUnsafeBytes {
            try JournalFiles.write(journal.fd, $0, at: journal.length, path: name())
          }
          if syncPolicy == .always { try JournalFiles.syncData(journal.fd, path: name()) }
        } catch {
          // Part of the batch may be in the file: it must never be read back.
          journal.needsCut = ftruncate(journal.fd, off_t(journal.length)) != 0
          throw error
        }
        journal.length += batch.records.bytes.count
        journal.records += batch.changes.count
        journal.batches += 1
        if syncPolicy == .deferred {
          journal.dirty = true
          journal.appendedSinceLook = true
        }
        return nil
      } catch {
        return PersistenceError.writeFailed(
          key: batch.changes.map(\.key).uniqued().joined(separator: ","),
          reason: String(describing: error))
      }
    }
  }

  /// Makes the values just written (in `bytes`, the batch's) their keys' values: each copied
  /// into the storage of the value it replaces, when no snapshot shares that one.
  func keep(_ changes: [(key: String, value: Range<Int>?)], _ bytes: [UInt8]) {
    values.withLock { values in
      // A bloc's changes come one after another: only the last of a run of one key stays.
      for index in changes.indices
      where index + 1 == changes.count || changes[index + 1].key != changes[index].key {
        let change = changes[index]
        guard let range = change.value else {
          values[change.key] = nil
          continue
        }
        if let slot = values.index(forKey: change.key) {
          values.values[slot].removeAll(keepingCapacity: true)
          values.values[slot].append(contentsOf: bytes[range])
        } else {
          values[change.key] = Array(bytes[range])
        }
      }
    }
  }

  /// Keeps the values just written (in `bytes`, the batch's) as the newest of their keys'
  /// history; a removed key's history goes with it.
  func retain(_ changes: [(key: String, value: Range<Int>?)], _ bytes: [UInt8]) {
    let limit = limits.history
    retained.withLock { retained in
      // Where the key of the change before is, while no key came or went: a bloc's changes
      // come one after another, so its key is looked up once per batch.
      var last: (key: String, index: Dictionary<String, RetainedValues>.Index)?
      for change in changes {
        guard let range = change.value else {
          retained[change.key] = nil
          last = nil
          continue
        }
        let value = bytes[range]
        // In place, and without `subscript(_:default:)`, whose default is a closure allocated
        // on every call.
        if let last, last.key == change.key {
          retained.values[last.index].append(value)
        } else if let index = retained.index(forKey: change.key) {
          retained.values[index].append(value)
          last = (change.key, index)
        } else {
          var values = RetainedValues(limit: limit)
          values.append(value)
          retained[change.key] = values
          last = nil
        }
      }
    }
  }

  /// When the journal file was deleted (the state directory removed), writing on would store
  /// nothing: start afresh in the (re-created) directory from the values in memory.
  func reopenIfGone(_ journal: inout OpenJournal) throws {
    var status = stat()
    guard fstat(journal.fd, &status) == 0 else {
      throw JournalFiles.failure("cannot stat", path)
    }
    guard status.st_nlink == 0 else {
      journal.lookDue = false
      journal.appendedSinceLook = false
      return
    }
    try FileManager.default.createDirectory(
      atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let next = journal.generation + 1
    try JournalFiles.writeAtomically(
      Self.snapshotBytes(values.withLock { $0 }, retained.withLock { $0 }), directory: path,
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
