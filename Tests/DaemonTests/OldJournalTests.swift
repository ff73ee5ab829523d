import Foundation
import Glibc
import Testing

// A journal written before the JSON writers were merged (issue 19) stays readable: its records
// hold the stored text of that time. Tests/Fixtures/old-journal.txt says what wrote it, and
// holds the replies the stated of that time gave on it; today's stated must give the same.
//
// To record again (only when a reply changes on purpose):
//
//     STATED_RECORD_REPLIES=1 swift test --filter OldJournalTests
//     git diff Tests/Fixtures/old-journal.txt

@Suite("Old journal")
struct OldJournalTests {
  static let fixtures = ProtocolDocumentTests.packageRoot.appendingPathComponent("Tests/Fixtures")
  static let script = fixtures.appendingPathComponent("old-journal.txt").path
  static let journal = fixtures.appendingPathComponent("old-journal").path

  @Test func recordsWrittenByTheEarlierWriterReadBackAsTheSameStates() async throws {
    let recorded = try String(contentsOfFile: Self.script, encoding: .utf8)
    let directory = TemporaryDirectory()
    let stateDirectory = directory.path + "/state"
    try FileManager.default.createDirectory(
      atPath: stateDirectory, withIntermediateDirectories: false,
      attributes: [.posixPermissions: 0o700])
    for file in try FileManager.default.contentsOfDirectory(atPath: Self.journal) {
      try FileManager.default.copyItem(
        atPath: Self.journal + "/" + file, toPath: stateDirectory + "/" + file)
    }
    let daemon = try await DaemonProcess(directory: directory)
    var run = ReplyScriptRun(daemon: daemon, directory: directory.path)
    let replayed = try await run.replay(try ReplyScript.steps(of: recorded), asRoot: false)
    daemon.signal(SIGTERM)
    #expect(try await daemon.waitForExit() == 0)
    if ProcessInfo.processInfo.environment["STATED_RECORD_REPLIES"] == "1" {
      try replayed.write(toFile: Self.script, atomically: true, encoding: .utf8)
      print("recorded \(Self.script)")
      return
    }
    if Array(replayed.utf8) != Array(recorded.utf8) {
      Issue.record(ReplyFixtureTests.firstDifference(expected: recorded, replayed: replayed))
    }

    // The old records and the new ones on top of them read back after a restart.
    let again = try await DaemonProcess(directory: directory)
    let client = try again.client()
    let settings = try await client.call(#"{"op":"get","feature":"settings"}"#)
    #expect(settings["seq"] == 4)
    #expect(settings["state"]?["counterStep"] == 1)
    let search = try await client.call(#"{"op":"get","feature":"search"}"#)
    #expect(search["state"]?["marks"]?.arrayValue?.count == 1)
    again.signal(SIGTERM)
    #expect(try await again.waitForExit() == 0)
  }
}
