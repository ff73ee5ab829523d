import Glibc
import StatectlCore
import Testing
import Wire

/// statectl in process against a fake daemon: requests sent, output, exit statuses.
@Suite(.serialized) struct SessionTests {
  static func counterReply(_ request: Request) -> [UInt8]? {
    switch request.op {
    case "send", "get":
      return Reply.success(
        id: request.id, fields: ["outcome": "handled", "state": ["count": 1], "seq": 3])
    case "ping":
      return Reply.success(id: request.id, fields: ["daemon": "stated 9.9", "protocol": 2])
    default:
      return Reply.failure(id: request.id, .unknownOp(request.op))
    }
  }

  @Test func sendBuildsTheEventAndPrintsTheState() {
    let daemon = FakeDaemon(Self.counterReply)
    let result = runStatectl(
      ["send", "counter", "set", "value:=5", "note=hi", "--socket", daemon.path], terminal: true)
    let requests = daemon.finish()
    #expect(result.status == .success)
    #expect(result.standardOutput == "count: 1\n")
    #expect(result.standardError == "")
    #expect(requests.count == 1)
    #expect(
      requests.first?.json.serializedString()
        == #"{"id":1,"op":"send","feature":"counter","event":{"type":"set","value":5,"note":"hi"}}"#
    )
  }

  @Test func pipedOutputIsOneJSONLine() {
    let daemon = FakeDaemon(Self.counterReply)
    let result = runStatectl(["get", "counter", "--socket", daemon.path], terminal: false)
    daemon.finish()
    #expect(result.status == .success)
    #expect(result.standardOutput == #"{"outcome":"handled","state":{"count":1},"seq":3}"# + "\n")
  }

  @Test func jsonAndHumanOverrideTheTerminalCheck() {
    let first = FakeDaemon(Self.counterReply)
    let json = runStatectl(["get", "counter", "--json", "--socket", first.path], terminal: true)
    first.finish()
    #expect(json.standardOutput.hasPrefix("{"))
    let second = FakeDaemon(Self.counterReply)
    let human = runStatectl(
      ["get", "counter", "--human", "--socket", second.path], terminal: false)
    second.finish()
    #expect(human.standardOutput == "count: 1\n")
  }

  @Test func socketFromTheEnvironment() {
    let daemon = FakeDaemon(Self.counterReply)
    let result = runStatectl(["ping"], terminal: true, environment: ["STATED_SOCKET": daemon.path])
    daemon.finish()
    #expect(result.status == .success)
    #expect(result.standardOutput.hasPrefix("stated 9.9 answered in "))
    #expect(result.standardOutput.hasSuffix("at \(daemon.path), protocol 2\n"))
  }

  @Test func refusedRequestExitsOneWithTheMessageOnStderr() {
    let daemon = FakeDaemon { request in
      Reply.failure(
        id: request.id, WireError(.unknownFeature, "unknown feature 'countr'; features: counter"))
    }
    let result = runStatectl(["get", "countr", "--socket", daemon.path], terminal: true)
    daemon.finish()
    #expect(result.status == .refused)
    #expect(result.standardOutput == "")
    #expect(
      result.standardError
        == "statectl: unknown_feature: unknown feature 'countr'; features: counter\n"
        + "hint: list the features with: statectl features\n")
  }

  @Test func failedEventExitsOne() {
    let daemon = FakeDaemon { request in
      Reply.failure(id: request.id, WireError(.eventFailed, "boom"))
    }
    let result = runStatectl(["send", "counter", "explode", "--socket", daemon.path, "--human"])
    daemon.finish()
    #expect(result.status == .refused)
    #expect(result.standardError == "statectl: event_failed: boom\n")
  }

  @Test func outcomeOtherThanHandledIsShown() {
    let daemon = FakeDaemon { request in
      Reply.success(
        id: request.id, fields: ["outcome": "dropped", "state": ["count": 0], "seq": 1])
    }
    let result = runStatectl(
      ["send", "counter", "increment", "--socket", daemon.path], terminal: true)
    daemon.finish()
    #expect(result.standardOutput == "outcome: dropped\ncount: 0\n")
  }

  @Test func undoWithNothingToUndoSaysSo() {
    let daemon = FakeDaemon { request in
      Reply.success(id: request.id, fields: ["changed": false, "state": ["count": 0], "seq": 1])
    }
    let result = runStatectl(["undo", "counter", "--socket", daemon.path], terminal: true)
    daemon.finish()
    #expect(result.status == .success)
    #expect(result.standardOutput == "nothing to undo; the state is unchanged:\ncount: 0\n")
  }

  @Test func watchPrintsTheStateThenPushesUntilCount() {
    let daemon = FakeDaemon { request in
      guard request.op == "watch" else { return nil }
      // Ignored: not watched.
      var lines = Push.state(feature: "other", sequence: 1, state: ["x": 1])
      lines += Reply.success(id: request.id, fields: ["state": ["count": 1], "seq": 1])
      lines += Push.state(feature: "counter", sequence: 2, state: ["count": 2])
      lines += Push.state(feature: "counter", sequence: 5, state: ["count": 3])
      return lines
    }
    let result = runStatectl(["watch", "counter", "--count", "3", "--socket", daemon.path])
    daemon.finish()
    #expect(result.status == .success)
    #expect(
      result.standardOutput == """
        {"feature":"counter","seq":1,"state":{"count":1}}
        {"feature":"counter","seq":2,"state":{"count":2}}
        {"feature":"counter","seq":5,"state":{"count":3}}

        """)
  }

  @Test func watchOnATerminal() {
    let daemon = FakeDaemon { request in
      Reply.success(id: request.id, fields: ["state": ["count": 1, "step": 2], "seq": 4])
        + Push.state(feature: "counter", sequence: 5, state: ["count": 3, "step": 2])
    }
    let result = runStatectl(
      ["watch", "counter", "-n", "2", "--socket", daemon.path], terminal: true)
    daemon.finish()
    #expect(result.standardOutput == "[4] count: 1, step: 2\n[5] count: 3, step: 2\n")
  }

  @Test func watchEndedByTheDaemonExitsFour() {
    let daemon = FakeDaemon(closeAfterAnswer: true) { request in
      Reply.success(id: request.id, fields: ["state": ["count": 1], "seq": 1])
    }
    let result = runStatectl(["watch", "counter", "--socket", daemon.path])
    daemon.finish()
    #expect(result.status == .connectionFailed)
    #expect(result.standardOutput == #"{"feature":"counter","seq":1,"state":{"count":1}}"# + "\n")
    #expect(result.standardError.contains("closed the connection"))
  }

  @Test func connectionClosedBeforeTheReplyExitsFour() {
    let daemon = FakeDaemon { _ in nil }
    let result = runStatectl(["get", "counter", "--socket", daemon.path, "--human"])
    daemon.finish()
    #expect(result.status == .connectionFailed)
    #expect(result.standardError.hasPrefix("statectl: connection closed before the reply"))
  }

  @Test func malformedReplyExitsFour() {
    let daemon = FakeDaemon { _ in Array("hello\n".utf8) }
    let result = runStatectl(["get", "counter", "--socket", daemon.path])
    daemon.finish()
    #expect(result.status == .connectionFailed)
    #expect(result.standardError.contains("malformed message from the daemon"))
    #expect(result.standardError.contains("protocol v2"))
  }

  @Test func silentDaemonTimesOut() {
    let daemon = FakeDaemon { _ in [] }
    let result = runStatectl(
      ["get", "counter", "--timeout", "0.2", "--socket", daemon.path], terminal: true)
    daemon.finish()
    #expect(result.status == .connectionFailed)
    #expect(
      result.standardError == "statectl: the daemon did not answer within 0.200 s (see --timeout)\n"
    )
  }
}

/// No daemon: missing, stale and foreign sockets exit 3 with the path and a hint.
@Suite(.serialized) struct UnreachableTests {
  @Test func missingSocket() {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path + "/stated.sock"
    let result = runStatectl(["send", "counter", "increment", "--socket", path], terminal: true)
    #expect(result.status == .unreachable)
    #expect(result.standardOutput == "")
    // The hint starts the daemon on the socket statectl looks at.
    #expect(
      result.standardError == """
        statectl: daemon unreachable: cannot connect to \(path): no such socket file
        hint: no daemon socket at \(path) (from --socket);
          is stated running? start it with: stated --socket \(path)  (or: swift run stated --socket \(path))

        """)
  }

  @Test func missingDefaultSocketNamesTheRule() {
    let result = runStatectl(
      ["ping"], environment: ["XDG_RUNTIME_DIR": "/nonexistent-cli-test"], uid: 1)
    #expect(result.status == .unreachable)
    #expect(result.standardError.contains("/nonexistent-cli-test/stated/stated.sock"))
    #expect(result.standardError.contains("the default under $XDG_RUNTIME_DIR"))
    let fallback = runStatectl(["ping"], uid: 999_999)
    #expect(fallback.standardError.contains("/tmp/stated-999999/stated.sock"))
  }

  @Test func staleSocket() {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path + "/stated.sock"
    close(bindSocket(path: path, listen: false))  // the file stays; nobody listens
    let result = runStatectl(["get", "counter", "--socket", path])
    #expect(result.status == .unreachable)
    #expect(result.standardError.contains("connection refused"))
    #expect(result.standardError.contains("stale socket"))
    #expect(result.standardError.contains("start it with: stated"))
  }

  @Test func notASocket() {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    let result = runStatectl(["get", "counter", "--socket", directory.path, "--human"])
    #expect(result.status == .unreachable)
    #expect(
      result.standardError.hasPrefix(
        "statectl: daemon unreachable: cannot connect to \(directory.path): not a socket\n"))
  }

  @Test func permissionDeniedMessage() {
    // Root passes every permission check, so the message is checked directly.
    let error = ConnectionError.connecting(to: "/run/x.sock", errno: EACCES)
    let message = Diagnostics.unreachable(
      error, socket: SocketPath(path: "/run/x.sock", source: .option))
    #expect(
      message.hasPrefix(
        "statectl: daemon unreachable: cannot connect to /run/x.sock: permission denied\n"))
    #expect(message.contains("run statectl as that user"))
  }

  @Test func pathTooLong() {
    let path = "/tmp/" + String(repeating: "x", count: 200)
    let result = runStatectl(["ping", "--socket", path])
    #expect(result.status == .unreachable)
    #expect(result.standardError.contains("at most 107 bytes"))
  }
}

/// Usage errors and help never touch the socket.
@Suite struct UsageTests {
  @Test func usageErrorExitsTwoAndPointsToHelp() {
    let result = runStatectl(["send", "counter", "set", "value:=nope"], terminal: true)
    #expect(result.status == .usage)
    #expect(result.standardOutput == "")
    #expect(
      result.standardError.hasPrefix("statectl: invalid JSON in 'value:=nope': "))
    #expect(result.standardError.hasSuffix("\nRun 'statectl help send' for usage.\n"))
    #expect(
      runStatectl([], terminal: true).standardError
        == "statectl: missing command\nRun 'statectl --help' for usage.\n")
  }

  @Test func helpForEveryCommand() {
    for command in CommandName.allCases {
      let viaHelp = runStatectl(["help", command.rawValue])
      let viaFlag = runStatectl([command.rawValue, "--help"])
      #expect(viaHelp.status == .success)
      #expect(viaHelp.standardOutput == viaFlag.standardOutput)
      #expect(viaHelp.standardOutput.contains("Usage: statectl"))
      #expect(viaHelp.standardOutput.contains("Examples:"))
      #expect(viaHelp.standardOutput.contains("Exit status:"))
    }
  }

  @Test func generalHelpDocumentsEveryCommandAndStatus() {
    let help = runStatectl(["--help"], environment: ["STATED_SOCKET": "/tmp/here.sock"])
    #expect(help.status == .success)
    for command in CommandName.allCases {
      #expect(help.standardOutput.contains("\n  \(command.rawValue) "))
    }
    for status in ExitStatus.allCases {
      #expect(help.standardOutput.contains("\n  \(status.rawValue)  "))
    }
    #expect(help.standardOutput.contains("(now: /tmp/here.sock)"))
  }

  @Test func version() {
    let result = runStatectl(["--version"])
    #expect(result.status == .success)
    #expect(result.standardOutput == "statectl \(Help.version) (protocol 2)\n")
  }
}
