import BlocCore
import BlocJournal
import Foundation
import Glibc
import Testing
import Wire

/// Issue 17: a crash left a torn record at the end of the journal, and the disk is still full.
/// The daemon starts all the same and serves what is stored; changes fail with
/// `storage_failed` while the torn bytes cannot be kept aside (they stay in the journal,
/// untouched, however often it restarts); once there is room they are kept aside as
/// `journal.<N>.log.corrupt-1` and changes are stored again. Nothing acknowledged is lost.
@Suite struct DamagedJournalOnFullDiskTests {
  static let increment = StorageFaultTests.increment
  static let get = StorageFaultTests.get

  static func count(_ reply: JSON) -> Int? { reply["state"]?["count"]?.intValue }

  @Test(arguments: ["always", "deferred"])
  func startsServesAndKeepsTheTornTailOnAFullDisk(sync: String) async throws {
    let directory = TemporaryDirectory()
    let state = directory.path + "/state"
    guard StorageFaultTests.mountTmpfsForTest(state, size: "128k") else { return }
    defer { StorageFaultTests.unmount(state) }
    let arguments = ["--sync", sync]
    do {
      let daemon = try await DaemonProcess(directory: directory, arguments: arguments)
      let client = try daemon.client()
      for _ in 0..<5 { _ = try await client.call(Self.increment) }
      daemon.signal(SIGKILL)
      #expect(try await daemon.waitForExit() == SIGKILL)
    }
    // The crash's torn write: the first 12 bytes of a record (its header and 4 payload bytes).
    let journal = state + "/journal.00000001.log"
    var bytes = try Data(contentsOf: URL(fileURLWithPath: journal))
    let torn = bytes[8..<20]
    let needed = 8 + Int(torn[8]) + Int(torn[9]) << 8  // the record's length field, plus its header
    bytes.append(torn)
    try bytes.write(to: URL(fileURLWithPath: journal))
    StorageFaultTests.fill(state + "/filler")

    // Started on the full disk: reads work, changes fail, the torn bytes stay where they are.
    for _ in 0..<2 {
      let daemon = try await DaemonProcess(directory: directory, arguments: arguments)
      // (The socket listens before the journal loads: the note may come after the connect.)
      #expect(
        await daemon.waitForLog(
          "journal journal.00000001.log: an incomplete record (\(needed) bytes expected, 12 present)"
        ),
        "\(daemon.log)")
      #expect(daemon.log.contains("so they stay in place, untouched"), "\(daemon.log)")
      let client = try daemon.client()
      #expect(Self.count(try await client.call(Self.get)) == 5)
      let refused = try await client.call(Self.increment)
      #expect(refused.errorCode == "storage_failed", "\(refused)")
      #expect(refused.errorMessage.contains("No space left on device"), "\(refused)")
      #expect(Self.count(refused) == 5)
      #expect(Self.count(try await client.call(Self.get)) == 5)
      #expect(try Data(contentsOf: URL(fileURLWithPath: journal)) == bytes, "untouched")
      #expect(!fileExists(journal + ".corrupt-1"))
      daemon.signal(SIGKILL)
      #expect(try await daemon.waitForExit() == SIGKILL)
    }

    // Restarted still full, then room again: the torn bytes go aside, the change is stored.
    var daemon = try await DaemonProcess(directory: directory, arguments: arguments)
    let client = try daemon.client()
    #expect(try await client.call(Self.increment).errorCode == "storage_failed")
    unlink(state + "/filler")
    let stored = try await client.call(Self.increment)
    #expect(stored["ok"] == true, "\(stored)")
    #expect(Self.count(stored) == 6)
    #expect(try Data(contentsOf: URL(fileURLWithPath: journal + ".corrupt-1")) == torn)
    #expect(
      daemon.log.contains(
        "journal journal.00000001.log: kept the 12 damaged bytes after byte \(bytes.count - 12) aside as journal.00000001.log.corrupt-1"
      ), "\(daemon.log)")

    // After a SIGKILL: exactly the acknowledged changes, from a journal that is whole again.
    daemon.signal(SIGKILL)
    #expect(try await daemon.waitForExit() == SIGKILL)
    daemon = try await DaemonProcess(directory: directory, arguments: arguments)
    #expect(Self.count(try await daemon.client().call(Self.get)) == 6)
    #expect(!daemon.log.contains("journal.00000001.log:"), "no damage left: \(daemon.log)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: journal + ".corrupt-1")) == torn)
    daemon.signal(SIGTERM)
    #expect(try await daemon.waitForExit() == 0)
  }

  /// Stores "a" = "stored" with one record per journal: the write is compacted into snapshot 1
  /// and journal 2 begins.
  static func storeInSnapshotOne(_ url: URL) throws {
    let storage = try JournalStorage(directory: url, limits: .init(records: 1))
    try storage.write("a", Data("stored".utf8))
    storage.close()
  }

  /// A crash as a new journal was created left a torn header, and the disk is full: the
  /// journal opens with the snapshot's values and keeps the torn bytes; once there is room
  /// they go aside and the journal is started again, with a whole header.
  @Test func aTornJournalHeaderOnAFullDiskIsKeptAndTheJournalStartedAgain() throws {
    let directory = TemporaryDirectory()
    let state = directory.path + "/state"
    guard StorageFaultTests.mountTmpfsForTest(state, size: "128k") else { return }
    defer { StorageFaultTests.unmount(state) }
    let url = URL(fileURLWithPath: state, isDirectory: true)
    try Self.storeInSnapshotOne(url)
    let journal = state + "/journal.00000002.log"
    #expect(fileExists(state + "/snapshot.00000001.bin"))
    let torn = Data("BLOCJ".utf8)
    try torn.write(to: URL(fileURLWithPath: journal))
    StorageFaultTests.fill(state + "/filler")

    let storage = try JournalStorage(directory: url)
    #expect(try storage.read("a") == Data("stored".utf8))
    #expect(
      storage.recoveryNotes.first?.hasPrefix(
        "journal journal.00000002.log: it does not start with the journal header; "
          + "kept the 0 records before it; cannot keep the last 5 bytes aside yet") == true,
      "\(storage.recoveryNotes)")
    #expect(throws: PersistenceError.self) { try storage.write("a", Data("refused".utf8)) }
    #expect(try Data(contentsOf: URL(fileURLWithPath: journal)) == torn, "untouched")

    unlink(state + "/filler")
    try storage.write("a", Data("after".utf8))
    storage.close()
    #expect(try Data(contentsOf: URL(fileURLWithPath: journal + ".corrupt-1")) == torn)
    let reopened = try JournalStorage(directory: url)
    #expect(reopened.recoveryNotes == [])
    #expect(try reopened.read("a") == Data("after".utf8))
    reopened.close()
  }

  /// A crash right after a new journal was created left it empty, and the disk is full: the
  /// journal opens with the snapshot's values; the header is written before the first write
  /// that finds room.
  @Test func anEmptyJournalOnAFullDiskOpensAndGetsItsHeaderOnceThereIsRoom() throws {
    let directory = TemporaryDirectory()
    let state = directory.path + "/state"
    guard StorageFaultTests.mountTmpfsForTest(state, size: "128k") else { return }
    defer { StorageFaultTests.unmount(state) }
    let url = URL(fileURLWithPath: state, isDirectory: true)
    try Self.storeInSnapshotOne(url)
    let journal = state + "/journal.00000002.log"
    #expect(truncate(journal, 0) == 0)
    StorageFaultTests.fill(state + "/filler")

    let storage = try JournalStorage(directory: url)
    #expect(try storage.read("a") == Data("stored".utf8))
    #expect(
      storage.recoveryNotes.last?.hasPrefix(
        "cannot write the header of journal journal.00000002.log yet (") == true,
      "\(storage.recoveryNotes)")
    #expect(throws: PersistenceError.self) { try storage.write("a", Data("refused".utf8)) }
    unlink(state + "/filler")
    try storage.write("a", Data("after".utf8))
    storage.close()
    let reopened = try JournalStorage(directory: url)
    #expect(reopened.recoveryNotes == [])
    #expect(try reopened.read("a") == Data("after".utf8))
    reopened.close()
  }
}
