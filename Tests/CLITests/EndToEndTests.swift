import Foundation
import Glibc
import ProcessSupport
import Testing
import Wire

/// The statectl binary as a subprocess against a real stated on a temporary socket and
/// state directory. Its stdout is a pipe, so output is JSON lines unless `--human`.
/// Serialized: each test starts a daemon, and the machine has two cores.
@Suite(.serialized) struct EndToEndTests {
  @Test func sendThenGetAsJSONLines() async throws {
    let daemon = try await StatedProcess()
    let socket = ["--socket", daemon.socketPath]
    let sent = try await statectl(["send", "counter", "increment"] + socket)
    #expect(sent.status == 0)
    #expect(sent.standardError == "")
    let reply = try #require(try sent.jsonLines.first)
    #expect(reply["outcome"] == "handled")
    #expect(reply["state"] == ["count": 1])
    #expect(reply["seq"]?.intValue == 1)
    #expect(try sent.jsonLines.count == 1)

    let set = try await statectl(["send", "counter", "set", "value:=41"] + socket)
    #expect(set.status == 0)
    let got = try await statectl(["get", "counter"] + socket)
    #expect(got.status == 0)
    #expect(got.standardOutput == #"{"state":{"count":41},"seq":2}"# + "\n")
  }

  @Test func humanOutput() async throws {
    let daemon = try await StatedProcess()
    let socket = ["--socket", daemon.socketPath, "--human"]
    let sent = try await statectl(["send", "counter", "set", "value:=7"] + socket)
    #expect(sent.standardOutput == "count: 7\n")
    let settings = try await statectl(
      ["send", "settings", "set", "key=searchCountry", "value=de"] + socket)
    #expect(settings.status == 0)
    #expect(settings.standardOutput.contains("searchCountry: de\n"))
    let ping = try await statectl(["ping"] + socket)
    #expect(ping.status == 0)
    #expect(ping.standardOutput.hasPrefix("stated "))
    #expect(ping.standardOutput.hasSuffix("at \(daemon.socketPath), protocol 2\n"))
  }

  @Test func pingFeaturesAndDescribe() async throws {
    let daemon = try await StatedProcess()
    let socket = ["--socket", daemon.socketPath]
    let ping = try await statectl(["ping"] + socket)
    #expect(ping.status == 0)
    #expect(try ping.jsonLines.first?["protocol"] == 2)
    #expect(try ping.jsonLines.first?["daemon"]?.stringValue != nil)

    let features = try await statectl(["features"] + socket)
    let names = try features.jsonLines.first?["features"]?.arrayValue?.compactMap {
      $0["name"]?.stringValue
    }
    // The built-in features first; a generated one may follow (Scripts/new-feature).
    #expect(names?.prefix(3) == ["counter", "settings", "search"])

    let described = try await statectl(["describe", "counter"] + socket)
    let json = try #require(try described.jsonLines.first)
    #expect(json["undo_redo"] == true)
    #expect(
      json["events"]?.arrayValue?.compactMap { $0["type"]?.stringValue }.contains("set") == true)

    let table = try await statectl(["describe", "counter", "--human"] + socket)
    #expect(table.status == 0)
    #expect(table.standardOutput.contains("  EVENT      FIELD  TYPE     DESCRIPTION\n"))
    #expect(table.standardOutput.contains("             value  integer  The new count.\n"))
    #expect(table.standardOutput.contains("statectl send counter set value:=<integer>\n"))
  }

  @Test func undoAndRedo() async throws {
    let daemon = try await StatedProcess()
    let socket = ["--socket", daemon.socketPath]
    _ = try await statectl(["send", "counter", "set", "value:=3"] + socket)
    _ = try await statectl(["send", "counter", "set", "value:=4"] + socket)
    let undone = try await statectl(["undo", "counter"] + socket)
    #expect(undone.status == 0)
    #expect(try undone.jsonLines.first?["changed"] == true)
    #expect(try undone.jsonLines.first?["state"] == ["count": 3])
    let redone = try await statectl(["redo", "counter", "--human"] + socket)
    #expect(redone.standardOutput == "count: 4\n")
    let nothing = try await statectl(["redo", "counter", "--human"] + socket)
    #expect(nothing.status == 0)
    #expect(nothing.standardOutput == "nothing to redo; the state is unchanged:\ncount: 4\n")
    let refused = try await statectl(["undo", "settings", "--human"] + socket)
    #expect(refused.status == 1)
    #expect(refused.standardOutput == "")
    #expect(refused.standardError.hasPrefix("statectl: not_supported: "))
  }

  @Test func watchCountPrintsOneLinePerState() async throws {
    let daemon = try await StatedProcess()
    let socket = ["--socket", daemon.socketPath]
    _ = try await statectl(["send", "counter", "set", "value:=10"] + socket)
    let (process, output, _) = try startStatectl(["watch", "counter", "--count", "3"] + socket)
    let lines = PipeLines(output)
    let first = try #require(try await lines.next())
    #expect(first == #"{"feature":"counter","seq":1,"state":{"count":10}}"#)
    _ = try await statectl(["send", "counter", "increment"] + socket)
    let second = try #require(try await lines.next())
    _ = try await statectl(["send", "counter", "increment"] + socket)
    let third = try #require(try await lines.next())
    #expect(try await waitForExit(process) == 0)
    #expect(try await lines.next() == nil)
    // Pushes may coalesce, so check order and the final state rather than every count.
    let parsed = try [second, third].map { try JSONParser().parse($0) }
    #expect(parsed.allSatisfy { $0["feature"] == "counter" })
    let seqs = parsed.compactMap { $0["seq"]?.intValue }
    #expect(seqs.count == 2 && seqs[0] < seqs[1] && seqs[0] > 1)
    #expect(parsed[1]["state"] == ["count": 12])
  }

  @Test func watchStopsCleanlyOnSIGINT() async throws {
    let daemon = try await StatedProcess()
    let (process, output, error) = try startStatectl([
      "watch", "counter", "--socket", daemon.socketPath,
    ])
    let lines = PipeLines(output)
    #expect(try await lines.next() == #"{"feature":"counter","seq":0,"state":{"count":0}}"#)
    kill(process.processIdentifier, SIGINT)
    #expect(try await waitForEnd(process) == ChildExit.End(status: 0, bySignal: false))
    #expect(PipeLines(error).rest() == "")
  }

  @Test func watchEndsWithStatusFourWhenTheDaemonStops() async throws {
    let daemon = try await StatedProcess()
    let (process, output, error) = try startStatectl([
      "watch", "counter", "--socket", daemon.socketPath,
    ])
    let lines = PipeLines(output)
    #expect(try await lines.next() != nil)
    try await daemon.stop(SIGTERM)
    #expect(try await waitForExit(process) == 4)
    #expect(PipeLines(error).rest().contains("closed the connection"))
  }

  @Test func refusalsExitOneWithTheDaemonsMessage() async throws {
    let daemon = try await StatedProcess()
    let socket = ["--socket", daemon.socketPath, "--human"]
    let unknownFeature = try await statectl(["get", "countr"] + socket)
    #expect(unknownFeature.status == 1)
    #expect(unknownFeature.standardOutput == "")
    #expect(
      unknownFeature.standardError.hasPrefix("statectl: unknown_feature: unknown feature 'countr'"))
    #expect(
      unknownFeature.standardError.contains("hint: list the features with: statectl features"))

    let unknownEvent = try await statectl(["send", "counter", "incr"] + socket)
    #expect(unknownEvent.status == 1)
    #expect(unknownEvent.standardError.contains("unknown_event"))
    #expect(unknownEvent.standardError.contains("statectl describe counter"))

    let wrongType = try await statectl(["send", "counter", "set", "value=ten"] + socket)
    #expect(wrongType.status == 1)
    #expect(wrongType.standardError.hasPrefix("statectl: invalid_field: "))

    let failed = try await statectl(
      ["send", "settings", "set", "key=searchLimit", "value:=500"] + socket)
    #expect(failed.status == 1)
    #expect(failed.standardError.hasPrefix("statectl: event_failed: "))
  }

  @Test func usageErrorsExitTwoWithoutTouchingTheDaemon() async throws {
    let badJSON = try await statectl([
      "send", "counter", "set", "value:=[1,", "--socket", "/nonexistent", "--human",
    ])
    #expect(badJSON.status == 2)
    #expect(badJSON.standardError.hasPrefix("statectl: invalid JSON in 'value:=[1,'"))
    let unknown = try await statectl(["frobnicate"])
    #expect(unknown.status == 2)
    let help = try await statectl(["send", "--help"])
    #expect(help.status == 0)
    #expect(help.standardOutput.hasPrefix("Usage: statectl send FEATURE EVENT"))
    let version = try await statectl(["--version"])
    #expect(version.standardOutput.hasPrefix("statectl "))
  }

  @Test func unreachableDaemonExitsThree() async throws {
    let daemon = try await StatedProcess()
    let path = daemon.socketPath
    // SIGKILL leaves the socket file behind: stale.
    try await daemon.stop(SIGKILL)
    let stale = try await statectl(["ping", "--socket", path])
    #expect(stale.status == 3)
    #expect(stale.standardError.contains("cannot connect to \(path): connection refused"))
    #expect(stale.standardError.contains("stale socket"))
    #expect(stale.standardError.contains("start it with: stated"))

    unlink(path)
    let missing = try await statectl(["ping", "--socket", path])
    #expect(missing.status == 3)
    #expect(missing.standardError.contains("cannot connect to \(path): no such socket file"))
    #expect(missing.standardError.contains("is stated running? start it with: stated"))
  }

  @Test func socketFromEnvironmentAndDefaultPath() async throws {
    // A daemon and statectl that agree on XDG_RUNTIME_DIR find each other without --socket.
    var template = Array("/tmp/cli-xdg.XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    try #require(made != nil)
    let runtime = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    defer { try? FileManager.default.removeItem(atPath: runtime) }
    let daemon = try await StatedProcess(
      extraEnvironment: ["XDG_RUNTIME_DIR": runtime], defaultSocket: true)
    #expect(daemon.socketPath == runtime + "/stated/stated.sock")
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_RUNTIME_DIR"] = runtime
    environment["STATED_SOCKET"] = nil
    let byDefault = try await statectl(["get", "counter"], environment: environment)
    #expect(byDefault.status == 0)

    environment["XDG_RUNTIME_DIR"] = "/nonexistent"
    environment["STATED_SOCKET"] = daemon.socketPath
    let byVariable = try await statectl(["get", "counter"], environment: environment)
    #expect(byVariable.status == 0)
  }

  @Test(.enabled(if: getuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0))
  func anotherUserIsDenied() async throws {
    let asNobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    // The build directory may sit where that user cannot reach the binary: nothing to test.
    guard try await statectl(["--version"], prefix: asNobody).status == 0 else { return }
    let daemon = try await StatedProcess()
    // The socket's directory and file are private: the kernel refuses.
    let denied = try await statectl(["ping", "--socket", daemon.socketPath], prefix: asNobody)
    #expect(denied.status == 3)
    #expect(denied.standardError.contains("permission denied"))
    // Opened up, the daemon itself refuses the foreign uid (SO_PEERCRED).
    chmod(daemon.directory, 0o755)
    chmod(daemon.socketPath, 0o666)
    let refused = try await statectl(
      ["ping", "--socket", daemon.socketPath, "--human"], prefix: asNobody)
    #expect(refused.status == 3)
    #expect(refused.standardError.hasPrefix("statectl: permission_denied: "))
    #expect(refused.standardError.contains("run statectl as that user"))
  }
}
