import Foundation
import Glibc
import StatectlCore
import Testing
import Wire

/// Errors follow the output: where replies are JSON (stdout not a terminal, or --json), an
/// error is one JSON object on stderr, with the same exit status as the text a terminal gets.
@Suite(.serialized) struct PipedErrorTests {
  /// The one JSON object on stderr, and nothing on stdout.
  func report(_ result: RunResult) throws -> JSON {
    #expect(result.standardOutput == "")
    #expect(result.standardError.hasSuffix("}\n"))
    #expect(result.standardError.split(separator: "\n").count == 1)
    return try JSONParser().parse(result.standardError)
  }

  @Test func unreachableInAPipeIsJSONWithStatusThree() throws {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path + "/stated.sock"
    let piped = runStatectl(["ping", "--socket", path])
    #expect(piped.status == .unreachable)
    let error = try report(piped)
    #expect(error["ok"] == false)
    #expect(error["status"] == 3)
    #expect(error["error"]?["code"] == "unreachable")
    #expect(error["error"]?["message"]?.stringValue?.contains("no such socket file") == true)
    #expect(
      error["error"]?["hint"]?.stringValue?.contains("start it with: stated --socket \(path)")
        == true)

    // --human in a pipe, and a terminal: text, same status.
    for text in [
      runStatectl(["ping", "--socket", path, "--human"]),
      runStatectl(["ping", "--socket", path], terminal: true),
    ] {
      #expect(text.status == .unreachable)
      #expect(text.standardError.hasPrefix("statectl: daemon unreachable: "))
    }
    // --json wins over a terminal.
    let json = runStatectl(["ping", "--socket", path, "--json"], terminal: true)
    #expect(try report(json)["status"] == 3)
  }

  @Test func usageErrorsInAPipeAreJSONWithStatusTwo() throws {
    let piped = runStatectl(["sned", "counter"])
    #expect(piped.status == .usage)
    let error = try report(piped)
    #expect(error["status"] == 2)
    #expect(error["error"]?["code"] == "usage")
    #expect(error["error"]?["message"] == "unknown command 'sned' (did you mean 'send'?)")
    #expect(error["error"]?["hint"] == "Run 'statectl --help' for usage.")

    let human = runStatectl(["sned", "counter", "--human"])
    #expect(human.status == .usage)
    #expect(
      human.standardError
        == "statectl: unknown command 'sned' (did you mean 'send'?)\nRun 'statectl --help' for usage.\n"
    )
    // The last of --json and --human decides, as for replies.
    #expect(
      runStatectl(["sned", "--human", "--json"], terminal: true).standardError.hasPrefix("{"))
    #expect(runStatectl(["sned", "--json", "--human"]).standardError.hasPrefix("statectl: "))
  }

  @Test func refusalsInAPipeAreJSONWithTheDaemonsCode() async throws {
    let daemon = try await StatedProcess()
    let socket = ["--socket", daemon.socketPath]
    let refused = try await statectl(["send", "counter", "incr"] + socket)
    #expect(refused.status == 1)
    #expect(refused.standardOutput == "")
    let error = try JSONParser().parse(refused.standardError)
    #expect(error["status"] == 1)
    #expect(error["error"]?["code"] == "unknown_event")
    #expect(
      error["error"]?["hint"] == "list its events and their fields with: statectl describe counter")

    let text = try await statectl(["send", "counter", "incr", "--human"] + socket)
    #expect(text.status == 1)
    #expect(text.standardError.hasPrefix("statectl: unknown_event: feature 'counter' has no event"))
  }

  /// `value=50` sends the string "50"; the refusal says how to send the number.
  @Test func aNumberSentAsTextGetsTheTypedFieldHint() async throws {
    let daemon = try await StatedProcess()
    let socket = ["--socket", daemon.socketPath, "--human"]
    let limit = try await statectl(
      ["send", "settings", "set", "key=searchLimit", "value=50"] + socket)
    #expect(limit.status == 1)
    #expect(
      limit.standardError == """
        statectl: invalid_field: field 'event.value' must be an integer from 1 to 200 (for searchLimit), got "50"
        hint: value=50 sends the string "50"; to send the number 50, write value:=50

        """)
    let count = try await statectl(["send", "counter", "set", "value=5"] + socket)
    #expect(count.status == 1)
    #expect(
      count.standardError.hasSuffix(
        "hint: value=5 sends the string \"5\"; to send the number 5, write value:=5\n"))
    let piped = try await statectl([
      "send", "counter", "set", "value=5", "--socket", daemon.socketPath,
    ])
    #expect(
      try JSONParser().parse(piped.standardError)["error"]?["hint"]
        == "value=5 sends the string \"5\"; to send the number 5, write value:=5")
    // A field whose text is accepted as text is not second-guessed.
    let backend = try await statectl(
      ["send", "settings", "set", "key=searchBackend", "value=5"] + socket)
    #expect(backend.status == 1)
    #expect(backend.standardError.hasPrefix("statectl: event_failed: "))
    #expect(!backend.standardError.contains("hint"))
  }
}

/// The hint of an unreachable daemon starts it where statectl looks.
@Suite struct StartHintTests {
  @Test func theSocketInUseIsPassedOn() {
    let option = SocketPath(path: "/tmp/my dir/s.sock", source: .option)
    #expect(
      Diagnostics.startHint(option)
        == "is stated running? start it with: stated --socket '/tmp/my dir/s.sock'  (or: swift run stated --socket '/tmp/my dir/s.sock')"
    )
    let variable = SocketPath(path: "/run/x/s.sock", source: .environment)
    #expect(Diagnostics.startHint(variable).contains("stated --socket /run/x/s.sock"))
    let standard = SocketPath(path: "/run/user/1/stated/stated.sock", source: .runtimeDirectory)
    #expect(
      Diagnostics.startHint(standard)
        == "is stated running? start it with: stated  (or: swift run stated)")
  }

  @Test func fromTheEnvironment() {
    let result = runStatectl(
      ["ping"], terminal: true, environment: ["STATED_SOCKET": "/nonexistent-h21/s.sock"])
    #expect(result.status == .unreachable)
    #expect(result.standardError.contains("start it with: stated --socket /nonexistent-h21/s.sock"))
  }
}
