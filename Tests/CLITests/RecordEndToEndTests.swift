import Foundation
import Glibc
import Testing
import Wire

/// `monitor --record`, `replay`'s refusals and `export-test`, with the statectl binary against
/// a real stated and real files.
@Suite(.serialized) struct RecordEndToEndTests {
  /// Records `sends` (each the arguments of a `statectl send`) of counter and settings to a
  /// file; returns its lines. The recording is on once its header is written.
  static func record(
    _ daemon: StatedProcess, to path: String, sends: [[String]]
  ) async throws -> [String] {
    try await record(daemon, to: path, commands: sends.map { ["send"] + $0 })
  }

  /// Records `commands` (statectl argument lists, each making one change or event).
  static func record(
    _ daemon: StatedProcess, to path: String, commands sends: [[String]]
  ) async throws -> [String] {
    let socket = ["--socket", daemon.socketPath]
    let (process, _, _) = try startStatectl(
      ["monitor", "--record", path, "counter", "settings", "--count", "\(sends.count)"] + socket)
    let deadline = ContinuousClock.now + .seconds(20)
    while (try? String(contentsOfFile: path, encoding: .utf8))?.contains("\n") != true {
      guard ContinuousClock.now < deadline else {
        throw ProcessFailure(description: "no recording header")
      }
      try await Task.sleep(for: .milliseconds(5))
    }
    for send in sends { _ = try await statectl(send + socket) }
    #expect(try await waitForExit(process) == 0)
    return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
  }

  @Test func aRecordingHasTheHeaderThenEveryEvent() async throws {
    let daemon = try await StatedProcess()
    _ = try await statectl(["send", "counter", "set", "value:=3", "--socket", daemon.socketPath])
    let path = daemon.directory + "/session.ndjson"
    let lines = try await Self.record(
      daemon, to: path,
      sends: [
        ["counter", "increment"], ["settings", "set", "key=counterStep", "value:=5"],
        ["counter", "increment"],
      ])
    try #require(lines.count == 4)
    let header = try JSONParser().parse(lines[0])
    #expect(header["format"] == "stated-recording")
    #expect(header["version"] == 1)
    #expect(header["protocol"]?.intValue != nil)
    #expect(header["features"]?[0]?["name"] == "counter")
    #expect(header["features"]?[0]?["state"] == ["count": 3])
    #expect(header["features"]?[0]?["seq"]?.intValue != nil)
    #expect(header["features"]?[0]?["describe"]?["events"]?.arrayValue?.isEmpty == false)
    #expect(header["features"]?[1]?["name"] == "settings")
    let pushes = try lines.dropFirst().map { try JSONParser().parse($0) }
    #expect(pushes.map { $0["push"] } == ["event", "event", "event"])
    #expect(pushes.map { $0["after"]?["count"] } == [4, nil, 9])
    #expect(pushes[1]["after"]?["counterStep"] == 5)
  }

  @Test func exportTestWritesASwiftTest() async throws {
    let daemon = try await StatedProcess()
    let path = daemon.directory + "/session.ndjson"
    _ = try await Self.record(daemon, to: path, sends: [["counter", "increment"]])
    let output = daemon.directory + "/RecordedCounterSessionTests.swift"
    let result = try await statectl(["export-test", path, "--feature", "counter", "-o", output])
    #expect(result.status == 0, "\(result.standardError)")
    let source = try String(contentsOfFile: output, encoding: .utf8)
    #expect(source.contains("@Suite struct RecordedCounterSession"))
    #expect(source.contains(##".send(#"{"type":"increment"}"#)"##))
    #expect(source.contains(##"#"{"count":1}"#"##))
    let unknown = try await statectl(["export-test", path, "--feature", "nope"])
    #expect(unknown.status == 2)
    #expect(unknown.standardError.contains("feature 'nope' is not in the recording"))
  }

  /// A file that is not a recording of this version, or names a feature that is not recorded,
  /// is refused before anything is sent: the daemon's state is unchanged.
  @Test func badRecordingsAreRefusedAndNothingIsSent() async throws {
    let daemon = try await StatedProcess()
    let socket = ["--socket", daemon.socketPath]
    let path = daemon.directory + "/session.ndjson"
    let lines = try await Self.record(daemon, to: path, sends: [["counter", "set", "value:=7"]])
    _ = try await statectl(["send", "counter", "set", "value:=1"] + socket)

    let notNDJSON = daemon.directory + "/notes.txt"
    try "just some notes\n".write(toFile: notNDJSON, atomically: true, encoding: .utf8)
    let refusedText = try await statectl(["replay", notNDJSON] + socket)
    #expect(refusedText.status == 2)
    #expect(refusedText.standardError.contains("line 1 is not a JSON object"))

    let otherVersion = daemon.directory + "/v2.ndjson"
    try
      ([lines[0].replacingOccurrences(of: #""version":1"#, with: #""version":2"#)]
      + lines.dropFirst()).joined(separator: "\n").write(
        toFile: otherVersion, atomically: true, encoding: .utf8)
    let refusedVersion = try await statectl(["replay", otherVersion] + socket)
    #expect(refusedVersion.status == 2)
    #expect(
      refusedVersion.standardError.contains(
        "is a recording of format version 2; this statectl reads version 1"))

    let unknownFeature = try await statectl(["replay", path, "--feature", "nope"] + socket)
    #expect(unknownFeature.status == 2)
    #expect(unknownFeature.standardError.contains("feature 'nope' is not in"))

    let missing = try await statectl(["replay", daemon.directory + "/none.ndjson"] + socket)
    #expect(missing.status == 2)
    #expect(missing.standardError.contains("No such file"))

    let state = try await statectl(["get", "counter"] + socket)
    #expect(try state.jsonLines.first?["state"] == ["count": 1], "nothing was sent")
  }
}

/// `replay` against real daemons: a recorded session of counter and settings replays on a fresh
/// daemon with exit status 0; the same file with one recorded state edited stops at that seq
/// with exit status 1; a torn last line is ignored.
@Suite(.serialized) struct ReplayEndToEndTests {
  static let session: [[String]] = [
    ["send", "counter", "increment"],
    ["send", "settings", "set", "key=counterStep", "value:=5"],
    ["send", "counter", "increment"],
    ["send", "settings", "set", "key=counterMaximum", "value:=8"],
    ["send", "counter", "increment"],  // refused: 11 is above 8
    ["undo", "counter"],
    ["redo", "counter"],
    ["send", "counter", "set", "value:=2"],
  ]

  @Test func aRecordedSessionReplaysAndAnEditedOneDiverges() async throws {
    let recorded = try await StatedProcess()
    let path = recorded.directory + "/session.ndjson"
    let lines = try await RecordEndToEndTests.record(
      recorded, to: path, commands: Self.session)
    try #require(lines.count == Self.session.count + 1, "\(lines)")

    let fresh = try await StatedProcess()
    let replayed = try await statectl(["replay", path, "--socket", fresh.socketPath])
    #expect(replayed.status == 0, "\(replayed.standardOutput)\(replayed.standardError)")
    let report = try #require(try replayed.jsonLines.first)
    #expect(report["ok"] == true)
    #expect(report["replayed"] == 8, "every change, the refused event too")
    let human = try await statectl(["replay", path, "--human", "--socket", fresh.socketPath])
    #expect(human.standardOutput.contains("every outcome and state matches"))

    // One event's recorded state edited: the replay stops there and names its seq.
    var edited = lines
    let index = try #require(
      edited.firstIndex { $0.contains(#""after":{"count":6}"#) }, "the second increment")
    edited[index] = edited[index].replacingOccurrences(
      of: #""after":{"count":6}"#, with: #""after":{"count":60}"#)
    let seq = try #require(try JSONParser().parse(edited[index])["seq"]?.intValue)
    let editedPath = recorded.directory + "/edited.ndjson"
    try (edited.joined(separator: "\n") + "\n").write(
      toFile: editedPath, atomically: true, encoding: .utf8)
    let other = try await StatedProcess()
    let diverged = try await statectl(["replay", editedPath, "--socket", other.socketPath])
    #expect(diverged.status == 1)
    let divergence = try #require(try diverged.jsonLines.first?["divergence"])
    #expect(divergence["seq"]?.intValue == seq)
    #expect(divergence["expected"]?["state"] == ["count": 60])
    #expect(divergence["actual"]?["state"] == ["count": 6])
    let text = try await statectl(["replay", editedPath, "--human", "--socket", other.socketPath])
    #expect(text.status == 1)
    #expect(text.standardOutput.contains("diverged at seq \(seq)"))
    #expect(text.standardOutput.contains("~ count: 60 → 6"))

    // A recording stopped mid-write: its torn last line is ignored.
    let tornPath = recorded.directory + "/torn.ndjson"
    try (lines.joined(separator: "\n") + "\n" + lines[1].prefix(30)).write(
      toFile: tornPath, atomically: true, encoding: .utf8)
    let third = try await StatedProcess()
    let torn = try await statectl(["replay", tornPath, "--socket", third.socketPath])
    #expect(torn.status == 0, "\(torn.standardOutput)\(torn.standardError)")
  }
}
