import Foundation
import Glibc
import Testing
import Wire

/// `monitor --record`, `replay`'s refusals and `export-test`, with the statectl binary against
/// a real stated and real files.
@Suite(.serialized) struct RecordEndToEndTests {
  /// Records `sends` (statectl argument lists) of counter and settings to a file; returns its
  /// lines. The recording is on once its header is written.
  static func record(
    _ daemon: StatedProcess, to path: String, sends: [[String]]
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
    for send in sends { _ = try await statectl(["send"] + send + socket) }
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
