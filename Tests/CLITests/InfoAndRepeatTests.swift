import Foundation
import Glibc
import Testing
import Wire

/// `info`, `get --select`, `-r`/`-i` and `monitor --event/--outcome`, as processes against a
/// real stated.
@Suite(.serialized) struct InfoAndRepeatTests {
  @Test func infoIsJSONInAPipeAndSectionsOnATerminal() async throws {
    let daemon = try await StatedProcess()
    let socket = ["--socket", daemon.socketPath]
    _ = try await statectl(["send", "counter", "set", "value:=5"] + socket)
    let piped = try await statectl(["info"] + socket)
    #expect(piped.status == 0)
    let info = try #require(try piped.jsonLines.first)
    #expect(info["server"]?["socket"]?.stringValue == daemon.socketPath)
    #expect(info["server"]?["pid"]?.intValue == Int(daemon.process.processIdentifier))
    #expect(info["stats"]?["events"]?["handled"] == 1)
    #expect(info["features"]?[0]?["seq"] == 1)

    let human = try await statectl(["info", "--human"] + socket)
    let lines = human.standardOutput.split(separator: "\n").map(String.init)
    for section in ["# server", "# clients", "# stats", "# features", "# persistence"] {
      #expect(lines.contains(section), "\(human.standardOutput)")
    }
    #expect(lines.contains("socket: \(daemon.socketPath)"))
    #expect(lines.contains { $0.hasPrefix("FEATURE") && $0.contains("SEQ") })
    #expect(lines.contains { $0.hasPrefix("counter ") && $0.contains(" 1 ") })
    #expect(lines.contains("sync: always"))

    let extra = try await statectl(["info", "counter"] + socket)
    #expect(extra.status == 2)
  }

  @Test func getSelectPrintsThePartOfTheState() async throws {
    let daemon = try await StatedProcess()
    let socket = ["--socket", daemon.socketPath]
    let piped = try await statectl(["get", "settings", "--select", "counterStep"] + socket)
    #expect(piped.standardOutput == #"{"seq":0,"select":"counterStep","value":1}"# + "\n")
    let human = try await statectl(
      ["get", "settings", "--select", "counterStep", "--human"] + socket)
    #expect(human.standardOutput == "1\n")
    let both = try await statectl(["get", "counter", "settings", "--select", "count"] + socket)
    #expect(both.status == 1)  // settings has no member 'count'
    #expect(
      both.standardOutput == #"{"feature":"counter","seq":0,"select":"count","value":0}"# + "\n")
    #expect(try JSON(parsing: both.standardError)["error"]?["code"] == "invalid_field")
    let wrong = try await statectl(["describe", "counter", "--select", "count"] + socket)
    #expect(wrong.status == 2)
  }

  @Test func repeatRunsTheCommandAgain() async throws {
    let daemon = try await StatedProcess()
    let socket = ["--socket", daemon.socketPath]
    let three = try await statectl(["-r", "3", "send", "counter", "increment"] + socket)
    #expect(three.status == 0)
    #expect(try three.jsonLines.map { $0["state"] } == [["count": 1], ["count": 2], ["count": 3]])
    let paced = try await statectl(["get", "counter", "-r", "2", "-i", "0.01"] + socket)
    #expect(try paced.jsonLines.count == 2)
    // Every run reports its own error; the status is the failure's.
    let failing = try await statectl(["-r", "2", "get", "nope"] + socket)
    #expect(failing.status == 1)
    #expect(failing.standardError.split(separator: "\n").count == 2)
    for bad in [["-r", "0"], ["-r", "x"], ["-i", "-1"]] {
      let usage = try await statectl(bad + ["get", "counter"] + socket)
      #expect(usage.status == 2, "\(bad)")
    }
    let watch = try await statectl(["-r", "2", "watch", "counter"] + socket)
    #expect(watch.status == 2)
    #expect(watch.standardError.contains("cannot be repeated"))

    // -i alone repeats until interrupted; SIGINT ends it with status 0.
    let (process, output, _) = try startStatectl(["get", "counter", "-i", "0.01"] + socket)
    let lines = PipeLines(output)
    #expect(try await lines.next() == #"{"state":{"count":3},"seq":3}"#)
    #expect(try await lines.next() == #"{"state":{"count":3},"seq":3}"#)
    kill(process.processIdentifier, SIGINT)
    #expect(try await waitForExit(process) == 0)
  }

  /// Waits until the daemon reports `count` monitoring connections (`info`).
  func waitForMonitors(_ count: Int, socket: String) async throws {
    let deadline = ContinuousClock.now + .seconds(30)
    while ContinuousClock.now < deadline {
      let connection = try WireConnection.connect(path: socket, timeout: .seconds(10))
      let info = try connection.call(Request(id: 1, op: "info"))
      connection.close()
      if info.fields["clients"]?["monitoring"]?.intValue == count { return }
      try await Task.sleep(for: .milliseconds(5))
    }
    throw ProcessFailure(description: "the monitor did not start")
  }

  @Test func monitorFiltersByEventAndOutcome() async throws {
    let daemon = try await StatedProcess()
    let socket = ["--socket", daemon.socketPath]
    let (failedOnly, failedOutput, _) = try startStatectl(
      ["monitor", "--outcome", "failed", "--count", "1"] + socket)
    let (setsOnly, setsOutput, _) = try startStatectl(
      ["monitor", "counter", "--event", "set", "--count", "1"] + socket)
    try await waitForMonitors(2, socket: daemon.socketPath)
    _ = try await statectl(["send", "counter", "increment"] + socket)
    _ = try await statectl(["send", "settings", "set", "key=searchLimit", "value:=500"] + socket)
    _ = try await statectl(["send", "counter", "set", "value:=7"] + socket)
    #expect(try await waitForExit(failedOnly) == 0)
    #expect(try await waitForExit(setsOnly) == 0)
    let failed = try JSONParser().parse(PipeLines(failedOutput).rest())
    #expect(failed["feature"] == "settings")
    #expect(failed["outcome"] == "failed")
    let set = try JSONParser().parse(PipeLines(setsOutput).rest())
    #expect(set["event"] == ["type": "set", "value": 7])

    let bad = try await statectl(["monitor", "--outcome", "lost"] + socket)
    #expect(bad.status == 2)
    #expect(bad.standardError.contains("handled, dropped, cancelled, failed"))
    let misplaced = try await statectl(["get", "counter", "--event", "set"] + socket)
    #expect(misplaced.status == 2)
  }
}
