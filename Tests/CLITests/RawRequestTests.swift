import Foundation
import Glibc
import Testing
import Wire

/// `statectl call` (one raw request, or NDJSON from stdin) and `send FEATURE -`, as processes
/// against a real stated.
@Suite(.serialized) struct RawRequestTests {
  func statectl(_ arguments: [String], input: String) async throws -> ProcessResult {
    try await runTool(Binaries.statectl, arguments, input: input)
  }

  @Test func callSendsOneRequestAndPrintsTheReplyAsSent() async throws {
    let daemon = try await StatedProcess()
    let socket = ["--socket", daemon.socketPath]
    let got = try await CLITests.statectl(
      ["call", #"{"id":1,"op":"get","feature":"counter"}"#] + socket)
    #expect(got.status == 0)
    #expect(got.standardOutput == #"{"id":1,"ok":true,"state":{"count":0},"seq":0}"# + "\n")
    #expect(got.standardError == "")

    // A refusal is a reply like any other: printed, exit status 1, nothing on stderr.
    let refused = try await CLITests.statectl(["call", #"{"op":"fly"}"#] + socket)
    #expect(refused.status == 1)
    #expect(try JSON(parsing: refused.standardOutput)["error"]?["code"] == "unknown_op")
    #expect(refused.standardError == "")

    let human = try await CLITests.statectl(
      ["call", #"{"op":"get","feature":"counter"}"#, "--human"] + socket)
    #expect(human.standardOutput.contains("\n  \"state\": {\n"))

    for bad in ["{", "[1]", ""] {
      let usage = try await CLITests.statectl(["call", bad] + socket)
      #expect(usage.status == 2, "\(bad)")
      #expect(try JSON(parsing: usage.standardError)["error"]?["code"] == "usage")
    }
    let missing = try await CLITests.statectl(["call"] + socket)
    #expect(missing.status == 2)
    #expect(missing.standardError.contains("missing REQUEST"))
    let repeated = try await CLITests.statectl(["call", "-", "-r", "2"] + socket)
    #expect(repeated.status == 2)
    #expect(repeated.standardError.contains("cannot be repeated"))
  }

  @Test func callDashSendsStandardInputPipelinedAndPrintsRepliesInOrder() async throws {
    let daemon = try await StatedProcess()
    let socket = ["--socket", daemon.socketPath]
    let input = """
      {"id":1,"op":"send","feature":"counter","event":{"type":"increment"}}

      {"id":2,"op":"get","feature":"nope"}
      not json
      {"id":3,"op":"watch","feature":"counter"}
      {"id":4,"op":"send","feature":"counter","event":{"type":"increment"}}
      {"id":5,"op":"get","feature":"counter"}
      """
    let result = try await statectl(["call", "-"] + socket, input: input)
    #expect(result.status == 1)  // a reply had "ok": false
    let replies = try result.jsonLines
    #expect(replies.count == 6)  // the blank line got none; the watch's push is not printed
    #expect(replies.map { $0["id"] } == [1, 2, nil, 3, 4, 5])
    #expect(replies[2]["error"]?["code"] == "parse_error")
    #expect(replies[5] == ["id": 5, "ok": true, "state": ["count": 2], "seq": 2])

    // More lines than one window: every reply, in order, and exit status 0.
    let many = (1...300).map {
      #"{"id":\#($0),"op":"send","feature":"counter","event":{"type":"increment"}}"#
    }
    let all = try await statectl(
      ["call", "-"] + socket, input: many.joined(separator: "\n") + "\n")
    #expect(all.status == 0, "\(all.standardError)")
    let ids = try all.jsonLines.map { $0["id"]?.intValue ?? 0 }
    #expect(ids == Array(1...300))
    #expect(try all.jsonLines.last?["state"] == ["count": 302])

    let empty = try await statectl(["call", "-"] + socket, input: "")
    #expect(empty.status == 0)
    #expect(empty.standardOutput == "")
  }

  @Test func sendDashReadsTheEventFromStandardInput() async throws {
    let daemon = try await StatedProcess()
    let socket = ["--socket", daemon.socketPath]
    let sent = try await statectl(
      ["send", "settings", "-"] + socket,
      input: #"{"type":"set","key":"counterStep","value":3}"#)
    #expect(sent.status == 0, "\(sent.standardError)")
    #expect(try sent.jsonLines.first?["state"]?["counterStep"] == 3)

    // Repeated: stdin is read once, the event sent each time.
    let twice = try await statectl(
      ["send", "counter", "-", "-r", "2"] + socket, input: #"{"type":"increment"}"#)
    #expect(twice.status == 0)
    #expect(try twice.jsonLines.map { $0["state"] } == [["count": 3], ["count": 6]])

    let refused = try await statectl(["send", "counter", "-"] + socket, input: #"{"type":"incr"}"#)
    #expect(refused.status == 1)
    #expect(try JSON(parsing: refused.standardError)["error"]?["code"] == "unknown_event")
    for bad in ["", "[1]", #"{"value":1}"#, "{"] {
      let usage = try await statectl(["send", "counter", "-"] + socket, input: bad)
      #expect(usage.status == 2, "\(bad)")
      #expect(try JSON(parsing: usage.standardError)["error"]?["code"] == "usage")
    }
    let extra = try await statectl(["send", "counter", "-", "value:=1"] + socket, input: "{}")
    #expect(extra.status == 2)
  }
}
