import Foundation
import Glibc
import Testing
import Wire

/// `monitor`/`unmonitor` and `watch … select` against the real daemon (PROTOCOL.md).
@Suite("monitor and select", .serialized)
struct MonitorTests {
  static func send(_ feature: String, _ event: String) -> String {
    #"{"op":"send","feature":"\#(feature)","event":\#(event)}"#
  }
  static let increment = send("counter", #"{"type":"increment"}"#)

  /// A push without its `time` (when it concluded: it varies), which must be an RFC 3339 UTC
  /// time with milliseconds.
  static func timeless(_ push: JSON) -> JSON {
    guard case .object(var members) = push else { return push }
    let time = members.removeValue(forKey: "time")?.stringValue ?? ""
    #expect(time.hasSuffix("Z") && time.count == "2026-12-01T19:20:01.123Z".count, "\(push)")
    return .object(members)
  }

  @Test func monitorPushesEveryConcludedEventWithItsStates() async throws {
    let daemon = try await DaemonProcess()
    let monitor = try daemon.client()
    let sender = try daemon.client()
    // Every feature the daemon serves, as `features` lists them (a generated one included).
    let served = try await sender.call(#"{"op":"features"}"#)["features"]?.arrayValue?
      .compactMap { $0["name"] }
    #expect(served?.prefix(3) == ["counter", "settings", "search"])
    #expect(
      try await monitor.call(#"{"id":1,"op":"monitor"}"#) == [
        "id": 1, "ok": true, "monitoring": .array(try #require(served)),
      ])
    _ = try await sender.call(Self.increment)
    #expect(
      Self.timeless(try await monitor.next()) == [
        "push": "event", "feature": "counter", "cause": "event", "event": ["type": "increment"],
        "outcome": "handled", "seq": 1, "before": ["count": 0], "after": ["count": 1],
      ])
    // No change: before and after are equal.
    _ = try await sender.call(Self.send("counter", #"{"type":"set","value":1}"#))
    #expect(
      Self.timeless(try await monitor.next()) == [
        "push": "event", "feature": "counter", "cause": "event",
        "event": ["type": "set", "value": 1], "outcome": "handled", "seq": 1,
        "before": ["count": 1], "after": ["count": 1],
      ])
    // A failure carries its error.
    let refused = Self.send("settings", #"{"type":"set","key":"searchLimit","value":500}"#)
    #expect(try await sender.call(refused)["outcome"] == "failed")
    let failed = try await monitor.next()
    #expect(failed["feature"] == "settings")
    #expect(failed["outcome"] == "failed")
    #expect(failed["event"] == ["type": "set", "key": "searchLimit", "value": 500])
    #expect(failed["error"]?["code"] == "event_failed")
    #expect(
      failed["error"]?["message"] == "searchLimit must be an integer from 1 to 200; got 500")
    #expect(failed["before"] == failed["after"])
    // Pushes of events the monitoring connection sends itself, too; then unmonitor.
    try monitor.write(Self.increment + "\n")
    var lines = [try await monitor.next(), try await monitor.next()]
    lines.sort { ($0["push"] == nil ? 1 : 0) < ($1["push"] == nil ? 1 : 0) }
    #expect(lines[0]["after"] == ["count": 2])
    #expect(lines[1]["state"] == ["count": 2])
    #expect(try await monitor.call(#"{"op":"unmonitor"}"#) == ["ok": true, "was_monitoring": true])
    _ = try await sender.call(Self.increment)
    // Nothing was pushed after the unmonitor reply: the next line answers the ping.
    #expect(try await monitor.call(#"{"id":"p","op":"ping"}"#)["id"] == "p")
    #expect(
      try await monitor.call(#"{"op":"unmonitor"}"#) == ["ok": true, "was_monitoring": false])
  }

  @Test func everyChangeIsPushedWithItsCause() async throws {
    let daemon = try await DaemonProcess()
    let monitor = try daemon.client()
    let sender = try daemon.client()
    _ = try await monitor.call(#"{"op":"monitor","features":["counter"]}"#)
    _ = try await sender.call(Self.send("counter", #"{"type":"set","value":5}"#))
    _ = try await monitor.next()
    func change(_ request: String) async throws -> JSON {
      _ = try await sender.call(request)
      return Self.timeless(try await monitor.next())
    }
    #expect(
      try await change(#"{"op":"undo","feature":"counter"}"#) == [
        "push": "event", "feature": "counter", "cause": "undo", "outcome": "handled", "seq": 2,
        "before": ["count": 5], "after": ["count": 0],
      ])
    #expect(
      try await change(#"{"op":"redo","feature":"counter"}"#) == [
        "push": "event", "feature": "counter", "cause": "redo", "outcome": "handled", "seq": 3,
        "before": ["count": 0], "after": ["count": 5],
      ])
    #expect(
      try await change(#"{"op":"goto","feature":"counter","seq":2}"#) == [
        "push": "event", "feature": "counter", "cause": "goto", "target": 2,
        "outcome": "handled", "seq": 4, "before": ["count": 5], "after": ["count": 0],
      ])
    #expect(
      try await change(#"{"op":"restore","feature":"counter","state":{"count":8}}"#) == [
        "push": "event", "feature": "counter", "cause": "restore", "outcome": "handled",
        "seq": 5, "before": ["count": 0], "after": ["count": 8],
      ])
    // Nothing to undo after a refused request: no change, no push; the next line is the ping.
    _ = try await sender.call(#"{"op":"goto","feature":"counter","seq":99}"#)
    #expect(try await monitor.call(#"{"id":"p","op":"ping"}"#)["id"] == "p")
  }

  /// An event's `before` is the state right before it, also when a request changed the state
  /// since the event before it (the tracker reuses the JSON of the last event's `after` only
  /// for that very state).
  @Test func beforeIsTheStateRightBeforeTheEvent() async throws {
    let daemon = try await DaemonProcess()
    let monitor = try daemon.client()
    let sender = try daemon.client()
    _ = try await monitor.call(#"{"op":"monitor","features":["counter"]}"#)
    func states(_ request: String) async throws -> [JSON?] {
      _ = try await sender.call(request)
      let push = try await monitor.next()
      return [push["cause"], push["before"]?["count"], push["after"]?["count"]]
    }
    #expect(
      try await states(Self.send("counter", #"{"type":"set","value":5}"#)) == ["event", 0, 5])
    #expect(try await states(Self.increment) == ["event", 5, 6])
    #expect(try await states(#"{"op":"undo","feature":"counter"}"#) == ["undo", 6, 5])
    #expect(try await states(Self.increment) == ["event", 5, 6])
    #expect(try await states(#"{"op":"undo","feature":"counter"}"#) == ["undo", 6, 5])
    #expect(try await states(#"{"op":"redo","feature":"counter"}"#) == ["redo", 5, 6])
    #expect(try await states(Self.increment) == ["event", 6, 7])
    #expect(try await states(Self.increment) == ["event", 7, 8])
  }

  @Test func monitorOnlyTheFeaturesAsked() async throws {
    let daemon = try await DaemonProcess()
    let monitor = try daemon.client()
    let sender = try daemon.client()
    #expect(
      try await monitor.call(#"{"op":"monitor","features":["counter","counter"]}"#)["monitoring"]
        == ["counter"])
    _ = try await sender.call(
      Self.send("settings", #"{"type":"set","key":"counterStep","value":2}"#))
    _ = try await sender.call(Self.increment)
    let push = try await monitor.next()
    #expect(push["feature"] == "counter")
    #expect(push["after"] == ["count": 2])
    // Asking again replaces the set.
    #expect(
      try await monitor.call(#"{"op":"monitor","features":["settings"]}"#)["monitoring"]
        == ["settings"])
    _ = try await sender.call(Self.increment)
    _ = try await sender.call(Self.send("settings", #"{"type":"reset","key":"counterStep"}"#))
    #expect(try await monitor.next()["feature"] == "settings")
  }

  @Test(arguments: [
    (#"{"op":"monitor","features":"counter"}"#, "invalid_field"),
    (#"{"op":"monitor","features":[]}"#, "invalid_field"),
    (#"{"op":"monitor","features":[1]}"#, "invalid_field"),
    (#"{"op":"monitor","features":["counter","nope"]}"#, "unknown_feature"),
    (#"{"op":"watch","feature":"counter","select":5}"#, "invalid_field"),
    (#"{"op":"watch","feature":"counter","select":""}"#, "invalid_field"),
    (#"{"op":"watch","feature":"counter","select":"a..b"}"#, "invalid_field"),
    (#"{"op":"watch","feature":"counter","select":"cuont"}"#, "invalid_field"),
  ])
  func badMonitorAndSelectRequestsAreRefused(line: String, code: String) async throws {
    let daemon = try await DaemonProcess()
    let client = try daemon.client()
    let reply = try await client.call(line)
    #expect(reply.errorCode == code, "\(reply)")
    // Nothing started: a change pushes nothing before the next reply.
    _ = try await daemon.client().call(Self.increment)
    #expect(try await client.call(#"{"id":"p","op":"ping"}"#)["id"] == "p")
  }

  @Test func watchSelectPushesOnlyWhenTheSelectedPartChanges() async throws {
    let daemon = try await DaemonProcess()
    let watcher = try daemon.client()
    let sender = try daemon.client()
    #expect(
      try await watcher.call(#"{"id":1,"op":"watch","feature":"settings","select":"counterStep"}"#)
        == ["id": 1, "ok": true, "seq": 0, "select": "counterStep", "value": 1])
    // Another setting changes the state (seq 1) but not the selected part: no push.
    _ = try await sender.call(
      Self.send("settings", #"{"type":"set","key":"searchLimit","value":5}"#))
    #expect(try await watcher.call(#"{"id":"p","op":"ping"}"#)["id"] == "p")
    _ = try await sender.call(
      Self.send("settings", #"{"type":"set","key":"counterStep","value":3}"#))
    #expect(
      try await watcher.next() == [
        "push": "state", "feature": "settings", "seq": 2, "select": "counterStep", "value": 3,
      ])
    // A plain watch of another feature on the same connection still gets whole states.
    _ = try await watcher.call(#"{"op":"watch","feature":"counter"}"#)
    _ = try await sender.call(Self.increment)
    #expect(try await watcher.next()["state"] == ["count": 3])
    #expect(
      try await watcher.call(#"{"op":"unwatch","feature":"settings"}"#)["was_watching"] == true)
  }

  @Test func aMonitorThatDoesNotReadMissesEventsAndIsToldHowMany() async throws {
    // In process, with a 16 KiB backlog for monitors: about a hundred pushes.
    try await withDispatcher(monitorBacklogBytes: 16 << 10) { path, _, _ in
      let monitor = try TestClient(path: path)
      let sender = try TestClient(path: path)
      #expect(try await monitor.call(#"{"op":"monitor","features":["tally"]}"#)["ok"] == true)
      let add = #"{"op":"send","feature":"tally","event":{"type":"add"}}"#
      // Well past what the socket buffers and the backlog hold, while the monitor reads nothing.
      let total = 10_000
      try sender.write(String(repeating: add + "\n", count: total))
      _ = try await sender.readLines(total, timeout: .seconds(120))
      // The ping's reply comes after every push queued so far; the next event's push then
      // fits, and says how many were skipped.
      try monitor.write(#"{"id":"p","op":"ping"}"# + "\n")
      var pushed = 0
      var missed = 0
      while case let push = try await monitor.next(timeout: .seconds(60)), push["id"] != "p" {
        pushed += 1
        missed += push.int("missed") ?? 0
      }
      _ = try await sender.call(add)
      let last = try await monitor.next()
      #expect(last["after"]?["count"] == JSON(total + 1))
      #expect(last["missed"] != nil, "the last events before the ping were skipped")
      missed += last.int("missed") ?? 0
      #expect(missed > 0, "the daemon buffered every push")
      #expect(pushed + missed + 1 == total + 1, "pushed \(pushed), missed \(missed)")
    }
  }
}
