import Foundation
import Glibc
import Testing
import Wire

/// `get` and `watch` of several features, `watch --select` and `monitor` with the statectl
/// binary against a real stated.
@Suite(.serialized) struct ObservingEndToEndTests {
  @Test func getAndWatchSeveralFeatures() async throws {
    let daemon = try await StatedProcess()
    let socket = ["--socket", daemon.socketPath]
    let got = try await statectl(["get", "counter", "settings"] + socket)
    #expect(got.status == 0, "\(got.standardError)")
    let replies = try got.jsonLines
    #expect(replies.map { $0["feature"] } == ["counter", "settings"])
    #expect(replies.first?["state"] == ["count": 0])

    let (process, output, _) = try startStatectl(
      ["watch", "counter", "settings", "--count", "4"] + socket)
    let lines = PipeLines(output)
    var first: [String] = []
    for _ in 0..<2 {
      let line = try #require(try await lines.next())
      first.append(try JSONParser().parse(line)["feature"]?.stringValue ?? "")
    }
    #expect(first.sorted() == ["counter", "settings"])
    _ = try await statectl(["send", "settings", "set", "key=counterStep", "value:=5"] + socket)
    let third = try JSONParser().parse(try #require(try await lines.next()))
    #expect(third["feature"] == "settings")
    #expect(third["state"]?["counterStep"] == 5)
    _ = try await statectl(["send", "counter", "increment"] + socket)
    let fourth = try JSONParser().parse(try #require(try await lines.next()))
    #expect(fourth["feature"] == "counter")
    #expect(fourth["state"] == ["count": 5])
    #expect(try await waitForExit(process) == 0)
  }

  @Test func watchSelectPrintsOnlyChangesOfThatPart() async throws {
    let daemon = try await StatedProcess()
    let socket = ["--socket", daemon.socketPath]
    let (process, output, _) = try startStatectl(
      ["watch", "settings", "--select", "counterStep", "--count", "2"] + socket)
    let lines = PipeLines(output)
    let first = try JSONParser().parse(try #require(try await lines.next()))
    #expect(first["select"] == "counterStep")
    #expect(first["value"] == 1)
    // A change elsewhere in the state prints nothing; a change of the selected part does.
    _ = try await statectl(["send", "settings", "set", "key=searchLimit", "value:=50"] + socket)
    _ = try await statectl(["send", "settings", "set", "key=counterStep", "value:=3"] + socket)
    let second = try JSONParser().parse(try #require(try await lines.next()))
    #expect(second["value"] == 3)
    #expect(try await waitForExit(process) == 0)
  }

  /// `monitor` with the daemon's op (PROTOCOL.md): events of every feature, in order.
  @Test func monitorShowsEventsOfEveryFeature() async throws {
    let daemon = try await StatedProcess()
    let socket = ["--socket", daemon.socketPath]
    let probe = try WireConnection.connect(path: daemon.socketPath, timeout: .seconds(10))
    let answer = try probe.call(Request(id: 1, op: "monitor"))
    probe.close()
    try #require(answer.ok, "this stated has no monitor op yet: \(answer.fields)")
    let (process, output, _) = try startStatectl(["monitor", "--count", "2"] + socket)
    let lines = PipeLines(output)
    // The monitor is registered once statectl prints nothing and the daemon answered; send
    // until the first event shows (the first sends may precede the registration).
    var events: [JSON] = []
    var value = 1
    while events.isEmpty && value < 100 {
      _ = try await statectl(["send", "counter", "set", "value:=\(value)"] + socket)
      value += 1
      let line: String?
      do {
        line = try await lines.next(timeout: .milliseconds(200))
      } catch {
        line = nil  // not registered yet: send again
      }
      if let line { events.append(try JSONParser().parse(line)) }
    }
    try #require(!events.isEmpty, "monitor printed no event")
    _ = try await statectl(["send", "settings", "set", "key=counterStep", "value:=2"] + socket)
    events.append(try JSONParser().parse(try #require(try await lines.next())))
    #expect(try await waitForExit(process) == 0)
    #expect(events[0]["feature"] == "counter")
    #expect(events[0]["event"]?["type"] == "set")
    #expect(events[0]["outcome"] == "handled")
    #expect(events[0]["after"] == ["count": events[0]["event"]?["value"] ?? .null])
    #expect(events[1]["feature"] == "settings")
    #expect(events[1]["after"]?["counterStep"] == 2)
  }
}
