import BlocCore
import BlocJournal
import Foundation
import Testing

/// Issue 17: a damaged journal is described as found. A flipped byte in a record's length
/// field is not called a torn write: the note says the length is damaged (the checksum matches
/// the bytes there), runs past the end, or leaves a checksum mismatch.
@Suite struct JournalDamageTests {
  /// A journal holding `a = first` (a 16-byte record at byte 8) then `a = second` (17 bytes at
  /// byte 24), with `byte` XORed with `flip`, reopened: its first recovery note.
  static func note(flipping byte: Int, with flip: UInt8) throws -> (String, String?) {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let storage = try JournalStorage(directory: directory)
    try storage.write("a", Data("first".utf8))
    try storage.write("a", Data("second".utf8))
    storage.close()
    let journal = directory.appendingPathComponent("journal.00000001.log")
    var bytes = try Data(contentsOf: journal)
    #expect(bytes.count == 41)
    bytes[byte] ^= flip
    try bytes.write(to: journal)
    let reopened = try JournalStorage(directory: directory)
    defer { reopened.close() }
    let value = try reopened.read("a").map { String(decoding: $0, as: UTF8.self) }
    return (try #require(reopened.recoveryNotes.first), value)
  }

  @Test func aLastRecordWhoseLengthWasFlippedIsSaidToHaveADamagedLength() throws {
    let (note, value) = try Self.note(flipping: 24, with: 0x40)  // 9 becomes 73
    #expect(
      note.hasPrefix(
        "journal journal.00000001.log: a record whose length field is damaged (it says 73 "
          + "bytes, but the checksum matches the 9 bytes present) at byte 24; kept the 1 "
          + "records before it"), "\(note)")
    #expect(!note.contains("torn"), "\(note)")
    #expect(value == "first")
  }

  @Test func aLengthThatRunsPastTheEndIsSaidToRunPastTheEnd() throws {
    let (note, value) = try Self.note(flipping: 8, with: 0x40)  // 8 becomes 72
    #expect(
      note.hasPrefix(
        "journal journal.00000001.log: an incomplete record (80 bytes expected, 33 present): "
          + "its length runs past the end of the file; a torn write, or a damaged length field "
          + "at byte 8; kept the 0 records before it"), "\(note)")
    #expect(value == nil)
  }

  @Test func aShorterLengthIsAChecksumMismatch() throws {
    let (note, value) = try Self.note(flipping: 8, with: 0x01)  // 8 becomes 9
    #expect(
      note.hasPrefix(
        "journal journal.00000001.log: a record whose checksum does not match its bytes at "
          + "byte 8"), "\(note)")
    #expect(value == nil)
  }

  @Test func aTornHeaderIsATornWrite() throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let storage = try JournalStorage(directory: directory)
    try storage.write("a", Data("first".utf8))
    storage.close()
    let journal = directory.appendingPathComponent("journal.00000001.log")
    let handle = try FileHandle(forWritingTo: journal)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data([9, 0, 0]))  // 3 bytes of the next record's header
    try handle.close()
    let reopened = try JournalStorage(directory: directory)
    defer { reopened.close() }
    #expect(
      reopened.recoveryNotes.first?.hasPrefix(
        "journal journal.00000001.log: an incomplete record header (8 bytes expected, 3 "
          + "present): a torn write at byte 24") == true, "\(reopened.recoveryNotes)")
  }
}
