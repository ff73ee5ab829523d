import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The damaged end of a journal, found at start: kept aside as `<journal>.corrupt-N` and cut
/// off, before anything is appended after the valid records.
///
/// Keeping it aside needs room on the disk. When there is none (a crash left the tail and the
/// disk is still full), the journal is left as it is, damaged bytes and all: the valid records
/// are loaded and served, and every write fails until the tail is kept aside, which the writer
/// tries again before each batch. So the damaged bytes are never overwritten, and nothing
/// acknowledged is lost.
struct JournalDamagedTail {
  let generation: UInt64
  /// Where the valid records end (the damaged bytes follow).
  let valid: Int
  /// The copy's name once written (the cut may still be missing).
  var aside: String?

  var journal: String { JournalFiles.journalName(generation) }

  /// Copies the bytes after ``valid`` to a free `<journal>.corrupt-N` (written atomically) and
  /// cuts them off the journal; returns how many bytes were kept aside. A journal that is gone
  /// or holds no such bytes any more has nothing to keep.
  mutating func setAside(directory: String) throws -> Int {
    let path = directory + "/" + journal
    guard let bytes = try JournalFiles.read(path), bytes.count > valid else { return 0 }
    if aside == nil {
      let name = JournalFiles.asideName(for: journal, in: directory)
      try JournalFiles.writeAtomically(
        Array(bytes[valid...]), directory: directory, name: name,
        temporary: "." + name + ".tmp")
      aside = name
    }
    guard truncate(path, off_t(valid)) == 0 else { throw JournalFiles.failure("cannot cut", path) }
    return bytes.count - valid
  }
}

extension JournalStorage {
  /// Keeps aside the damaged tails left in place at start, before a batch is appended; throws
  /// (and the batch fails) while that is not possible. Runs under the file's lock.
  func setAsideDamagedTails(_ journal: inout OpenJournal) throws {
    while var tail = journal.damagedTails.first {
      do {
        let count = try tail.setAside(directory: path)
        journal.damagedTails.removeFirst()
        if count > 0, let aside = tail.aside {
          log(
            "journal \(tail.journal): kept the \(count) damaged bytes after byte \(tail.valid) aside as \(aside) and cut them off; changes are stored again"
          )
        }
      } catch {
        journal.damagedTails[0] = tail
        throw JournalFiles.FileError(
          description:
            "cannot keep aside the damaged end of \(tail.journal) yet, so nothing is appended to it: \(error)"
        )
      }
    }
  }

  /// Writes the header of a journal that has none yet (a torn one kept aside, or no room at
  /// start), before a batch is appended; throws (and the batch fails) while there is no room.
  /// Runs under the file's lock.
  func writeHeader(_ journal: inout OpenJournal) throws {
    let name = path + "/" + JournalFiles.journalName(journal.generation)
    guard ftruncate(journal.fd, 0) == 0 else { throw JournalFiles.failure("cannot cut", name) }
    try JournalFormat.journalMagic.withUnsafeBytes {
      try JournalFiles.write(journal.fd, $0, at: 0, path: name)
    }
    try JournalFiles.syncData(journal.fd, path: name)
    try JournalFiles.syncDirectory(path)  // the file may have been created at start
    journal.length = JournalFormat.headerSize
    journal.needsHeader = false
    journal.zeroed = 0
  }
}
