import BlocJournal
import Foundation
import Testing

/// Under `.always` the journal's records are written over zeros written ahead of them: a
/// journal left by a crash ends in zeros, read as its end, never as damage; a clean close cuts
/// them off; zeros followed by anything else are damage, as before.
@Suite struct JournalZeroAheadTests {
  static func journal(in directory: URL) -> String {
    directory.path + "/journal.00000001.log"
  }

  static func size(_ path: String) throws -> Int {
    try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
  }

  static func text(_ storage: JournalStorage, _ key: String) throws -> String? {
    try storage.read(key).map { String(decoding: $0, as: UTF8.self) }
  }

  /// Writes `a = first`, `a = second` with `.always` and leaves the storage without closing
  /// it, as a crash would; returns the records' length.
  static func crashedJournal(in directory: URL) throws -> Int {
    let storage = try JournalStorage(directory: directory, sync: .always)
    try storage.write("a", Data("first".utf8))
    try storage.write("a", Data("second".utf8))
    storage.sync()  // the zeros ahead are written after the batch: wait for them
    return storage.status.journalBytes
  }

  @Test func aCrashLeavesZerosAfterTheRecordsAndTheyReadAsTheEnd() throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let records = try Self.crashedJournal(in: directory)
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.journal(in: directory))))
    #expect(bytes.count > records + 1000, "zeros written ahead")
    #expect(bytes[records...].allSatisfy { $0 == 0 })
    let reopened = try JournalStorage(directory: directory, sync: .always)
    #expect(reopened.recoveryNotes.isEmpty, "\(reopened.recoveryNotes)")
    #expect(try Self.text(reopened, "a") == "second")
    #expect(reopened.status.journalBytes == records)
    // Written over the zeros, and read back after a clean close, which cuts them off.
    try reopened.write("b", Data("third".utf8))
    let written = reopened.status.journalBytes
    reopened.close()
    #expect(try Self.size(Self.journal(in: directory)) == written)
    let again = try JournalStorage(directory: directory, sync: .always)
    #expect(again.recoveryNotes.isEmpty, "\(again.recoveryNotes)")
    #expect(try Self.text(again, "a") == "second")
    #expect(try Self.text(again, "b") == "third")
    again.close()
  }

  @Test func aDamagedRecordBeforeTheZerosIsStillDamage() throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let records = try Self.crashedJournal(in: directory)
    let url = URL(fileURLWithPath: Self.journal(in: directory))
    var bytes = try Data(contentsOf: url)
    bytes[records - 2] ^= 0x04  // in `second`
    try bytes.write(to: url)
    let reopened = try JournalStorage(directory: directory, sync: .always)
    #expect(try Self.text(reopened, "a") == "first")
    let note = try #require(reopened.recoveryNotes.first)
    #expect(note.contains("a record whose checksum does not match its bytes"), "\(note)")
    reopened.close()
  }

  @Test func zerosFollowedByAnythingElseAreDamage() throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let records = try Self.crashedJournal(in: directory)
    let url = URL(fileURLWithPath: Self.journal(in: directory))
    var bytes = try Data(contentsOf: url)
    bytes[bytes.count - 1] = 1
    try bytes.write(to: url)
    let reopened = try JournalStorage(directory: directory, sync: .always)
    #expect(try Self.text(reopened, "a") == "second")
    let note = try #require(reopened.recoveryNotes.first)
    #expect(note.contains("an impossible record length 0 at byte \(records)"), "\(note)")
    reopened.close()
  }
}
