import Foundation
import Glibc
import Testing
import Wire

/// Real daemons killed at random moments while clients send: every acknowledged change is
/// there after the restart, under both `--sync` modes; damaged journals load with a log line.
@Suite struct CrashRecoveryTests {
  static let increment = #"{"op":"send","feature":"counter","event":{"type":"increment"}}"#
  static let get = #"{"op":"get","feature":"counter"}"#

  static func count(_ daemon: DaemonProcess) async throws -> Int {
    try #require(try await daemon.client().call(get)["state"]?["count"]?.intValue)
  }

  @Test(arguments: ["always", "deferred"])
  func sigkillWhileFourConnectionsSendLosesNothingAcknowledged(sync: String) async throws {
    let directory = TemporaryDirectory()
    var floor = 0  // acknowledged increments so far: the count can never be lower
    for round in 0..<4 {
      let daemon = try await DaemonProcess(directory: directory, arguments: ["--sync", sync])
      let restored = try await Self.count(daemon)
      #expect(restored >= floor, "round \(round): \(floor - restored) acknowledged changes lost")
      floor = restored
      let socket = daemon.socketPath
      let senders = (0..<4).map { _ in
        Task.detached { () -> Int in
          guard let client = try? TestClient(path: socket) else { return 0 }
          var acknowledged = 0
          while let reply = try? await client.call(Self.increment, timeout: .seconds(20)) {
            if reply["outcome"] == "handled" { acknowledged += 1 }
          }
          return acknowledged
        }
      }
      try await Task.sleep(for: .milliseconds(Int.random(in: 30...300)))
      daemon.signal(SIGKILL)
      #expect(try await daemon.waitForExit() == SIGKILL)
      for sender in senders { floor += await sender.value }
    }
    let daemon = try await DaemonProcess(directory: directory, arguments: ["--sync", sync])
    #expect(try await Self.count(daemon) >= floor)
    #expect(floor > 0, "no change was acknowledged before the kills: the test proved nothing")
  }

  /// Five increments stored, the daemon stopped, then its journal damaged by `damage`.
  static func damagedJournal(_ damage: (String) throws -> Void) async throws -> DaemonProcess {
    let directory = TemporaryDirectory()
    do {
      let daemon = try await DaemonProcess(directory: directory)
      let client = try daemon.client()
      for _ in 0..<5 { _ = try await client.call(increment) }
      daemon.signal(SIGTERM)
      #expect(try await daemon.waitForExit() == 0)
    }
    try damage(directory.path + "/state/journal.00000001.log")
    return try await DaemonProcess(directory: directory)
  }

  static func size(_ path: String) throws -> Int {
    try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
  }

  @Test func aTornTailIsCutAndLogged() async throws {
    let daemon = try await Self.damagedJournal { journal in
      let size = try Self.size(journal)
      #expect(truncate(journal, off_t(size - 5)) == 0)
    }
    #expect(try await Self.count(daemon) == 4)
    #expect(
      daemon.log.contains("journal journal.00000001.log: an incomplete record"), "\(daemon.log)")
    #expect(daemon.log.contains("kept them aside as journal.00000001.log.corrupt-1"))
  }

  @Test func aFlippedByteIsCutAndLogged() async throws {
    let daemon = try await Self.damagedJournal { journal in
      var bytes = try Data(contentsOf: URL(fileURLWithPath: journal))
      bytes[bytes.count - 3] ^= 0x10
      try bytes.write(to: URL(fileURLWithPath: journal))
    }
    #expect(try await Self.count(daemon) == 4)
    #expect(daemon.log.contains("a record whose checksum does not match"), "\(daemon.log)")
  }

  /// A flipped bit in the last record's length field is told as found, not as a torn write.
  @Test func aFlippedLengthByteIsLoggedAsFound() async throws {
    let daemon = try await Self.damagedJournal { journal in
      var bytes = try Data(contentsOf: URL(fileURLWithPath: journal))
      var last = 8
      while true {
        let next = last + 8 + Int(bytes[last]) + Int(bytes[last + 1]) << 8
        if next >= bytes.count { break }
        last = next
      }
      bytes[last + 1] ^= 0x01  // 256 bytes more than there are
      try bytes.write(to: URL(fileURLWithPath: journal))
    }
    #expect(try await Self.count(daemon) == 4)
    #expect(
      daemon.log.contains("a record whose length field is damaged (it says"), "\(daemon.log)")
    #expect(daemon.log.contains("but the checksum matches the"), "\(daemon.log)")
    #expect(!daemon.log.contains("torn"), "\(daemon.log)")
  }

  @Test func anEmptyJournalLoadsAndIsLogged() async throws {
    let daemon = try await Self.damagedJournal { journal in
      #expect(truncate(journal, 0) == 0)
    }
    #expect(try await Self.count(daemon) == 0)
    #expect(daemon.log.contains("journal journal.00000001.log is empty"), "\(daemon.log)")
    let client = try daemon.client()
    #expect(try await client.call(Self.increment)["state"]?["count"] == 1)
  }

  @Test func stateFilesOfAnEarlierVersionAreMigrated() async throws {
    let directory = TemporaryDirectory()
    mkdir(directory.path + "/state", 0o700)
    try #"{"schemaVersion":1,"state":{"count":41}}"#.write(
      toFile: directory.path + "/state/counter.json", atomically: true, encoding: .utf8)
    let daemon = try await DaemonProcess(directory: directory)
    #expect(try await Self.count(daemon) == 41)
    #expect(daemon.log.contains("migrated 1 state file(s) into the journal"), "\(daemon.log)")
    #expect(fileExists(directory.path + "/state/counter.json.migrated"))
  }
}
