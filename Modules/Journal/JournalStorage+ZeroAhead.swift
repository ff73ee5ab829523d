import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Under `.always` the journal's records are written over zeros written and synced ahead of
/// them, not appended. A sync after an append must also commit the file's new size and the
/// blocks just allocated for it (a second write, to the file system's own journal); a sync
/// after an overwrite commits the data alone. On this VM's ext4 a batch of 4 KB (30 records)
/// then synced in 142–147 µs instead of 235–313 µs (medians, a C program alternating the two
/// ways in blocks of 50 syncs), as long as nothing asks for the file's times between writes
/// (JournalLinks.h). PostgreSQL zero-fills its WAL segments before use for the
/// same reason. Recovery reads a zero length followed by zeros only as the journal's end
/// (``JournalFormat/isZeroTail(_:from:)``), and a clean close cuts the zeros off, so that a
/// journal closed cleanly ends with its last record, as before. On a nearly full file system
/// no zeros are written: they would take room a change may need, and a full disk would fail
/// changes only once they are used up.
extension JournalStorage {
  /// How far ahead of the records zeros are written: about 250 batches of 30 records; more
  /// are written when less than a quarter of that is left. Writing and syncing them takes
  /// about as long as a few syncs of a batch, whatever their number.
  static let zeroAhead = 1 << 20
  /// The zeros written, a block at a time: allocated once, not per step.
  static let zeros = [UInt8](repeating: 0, count: 64 << 10)
  /// Zeros are written only while the file system has this much room left.
  static let roomForZeros = 64 << 20

  func isDueForZeros(_ journal: OpenJournal) -> Bool {
    syncPolicy == .always && !journal.zeroingStopped
      && journal.zeroed - journal.length < Self.zeroAhead / 4
  }

  /// Writes and syncs the next zeros ahead of the records, if due: after a batch, once its
  /// completions ran, where it was written, under the file's lock. A nearly full file system
  /// or a failure only means that this file is appended to, as it used to be: not retried in
  /// it.
  func zeroAheadIfDue() {
    file.withLock { journal in
      guard isDueForZeros(journal), !journal.closed, journal.fd >= 0, !journal.needsCut,
        !journal.needsHeader, journal.damagedTails.isEmpty
      else { return }
      var room = statvfs()
      guard fstatvfs(journal.fd, &room) == 0,
        Int(room.f_bavail) * Int(room.f_frsize) >= Self.roomForZeros
      else {
        journal.zeroingStopped = true
        return
      }
      let start = max(journal.zeroed, journal.length)
      let end = journal.length + Self.zeroAhead
      let name = path + "/" + JournalFiles.journalName(journal.generation)
      do {
        var offset = start
        while offset < end {
          let count = min(end - offset, Self.zeros.count)
          try Self.zeros.withUnsafeBytes { zeros in
            let part = UnsafeRawBufferPointer(rebasing: zeros[..<count])
            try JournalFiles.write(journal.fd, part, at: offset, path: name)
          }
          offset += count
        }
        try JournalFiles.syncData(journal.fd, path: name)
        journal.zeroed = end
      } catch {
        // What was written of them goes: zeros only, past the records, but taking room.
        journal.zeroingStopped = true
        _ = ftruncate(journal.fd, off_t(start))
      }
    }
  }

  /// At a clean close: cuts off the zeros after the last record.
  func cutZeros(_ journal: inout OpenJournal) {
    guard journal.zeroed > journal.length, journal.fd >= 0 else { return }
    if ftruncate(journal.fd, off_t(journal.length)) == 0, fsync(journal.fd) == 0 {
      journal.zeroed = journal.length
    }
  }
}
