import Testing
import Wire

@testable import StatectlCore

/// The recording file (`monitor --record`): written and read back, a torn last line ignored,
/// anything else refused with what was wrong.
@Suite struct RecordingTests {
  static let header =
    #"{"format":"stated-recording","version":1,"protocol":2,"recorded_at":"2026-12-01T19:20:00.000Z","features":[{"name":"counter","describe":{"undo_redo":true},"state":{"count":3},"seq":12}]}"#
  static let push =
    #"{"push":"event","feature":"counter","cause":"event","event":{"type":"increment"},"outcome":"handled","seq":13,"time":"2026-12-01T19:20:01.000Z","before":{"count":3},"after":{"count":4}}"#

  func parse(_ text: String) throws(Recording.Problem) -> Recording {
    try Recording(parsing: Array(text.utf8), path: "session.ndjson")
  }

  func problem(_ text: String) -> String? {
    do {
      _ = try parse(text)
      return nil
    } catch {
      return error.message
    }
  }

  @Test func headerAndPushes() throws {
    let recording = try parse(Self.header + "\n" + Self.push + "\n")
    #expect(recording.protocolVersion == 2)
    #expect(
      recording.features == [
        .init(name: "counter", describe: ["undo_redo": true], state: ["count": 3], seq: 12)
      ])
    #expect(recording.entries.count == 1)
    #expect(recording.entries.first?.line == 2)
    #expect(recording.entries.first?.seq == 13)
    #expect(recording.entries.first?.after == ["count": 4])
    #expect(!recording.ignoredTornLine)
  }

  @Test func theHeaderLineReadsBack() throws {
    let recording = try parse(Self.header + "\n")
    #expect(recording.headerLine() == Self.header)
  }

  @Test func aTornLastLineIsIgnored() throws {
    let torn = try parse(Self.header + "\n" + Self.push + "\n" + Self.push.prefix(40))
    #expect(torn.entries.count == 1)
    #expect(torn.ignoredTornLine)
    // A whole last line without its newline is kept.
    let whole = try parse(Self.header + "\n" + Self.push)
    #expect(whole.entries.count == 1)
    #expect(!whole.ignoredTornLine)
  }

  @Test func otherFilesAreRefused() {
    #expect(problem("")?.contains("is empty") == true)
    #expect(problem("hello\n")?.contains("line 1 is not a JSON object") == true)
    #expect(
      problem(#"{"id":1,"ok":true}"# + "\n")?.contains(#"no "format":"stated-recording""#) == true)
    #expect(
      problem(Self.header.replacingVersion(2) + "\n")
        == "session.ndjson is a recording of format version 2; this statectl reads version 1")
    #expect(
      problem(Self.header + "\nnot json\n" + Self.push + "\n")
        == "session.ndjson: line 2 is not a JSON object; a recording is NDJSON, one push per line")
    #expect(
      problem(#"{"format":"stated-recording","version":1,"features":[]}"# + "\n")?
        .contains("lists no \"features\"") == true)
  }

  @Test func aPushTheStartingStateIncludesIsLeftOut() {
    func push(seq: Int, before: Int, after: Int) -> JSONObject {
      [
        "push": "event", "feature": "counter", "seq": JSON(seq), "before": ["count": JSON(before)],
        "after": ["count": JSON(after)],
      ]
    }
    #expect(!Recording.follows(push(seq: 11, before: 1, after: 2), start: 12))
    #expect(!Recording.follows(push(seq: 12, before: 2, after: 3), start: 12))
    #expect(Recording.follows(push(seq: 12, before: 3, after: 3), start: 12), "changed nothing")
    #expect(Recording.follows(push(seq: 13, before: 3, after: 4), start: 12))
  }

  @Test func timestampsAreRFC3339WithMilliseconds() {
    let stamp = utcTimestamp()
    #expect(stamp.count == 24)
    #expect(stamp.hasSuffix("Z"))
    #expect(Array(stamp)[10] == "T")
  }
}

extension String {
  fileprivate func replacingVersion(_ version: Int) -> String {
    var text = self
    if let range = text.firstRange(of: #""version":1"#) {
      text.replaceSubrange(range, with: #""version":\#(version)"#)
    }
    return text
  }
}
