import Glibc
import Testing
import Wire

/// The `info` op against a real daemon: what it reports follows what clients did.
@Suite(.serialized) struct InfoTests {
  @Test func countsFollowWhatClientsDid() async throws {
    let daemon = try await DaemonProcess(arguments: ["--sync", "deferred"])
    let client = try daemon.client()
    let fresh = try await client.call(#"{"id":1,"op":"info"}"#)
    #expect(fresh["ok"] == true)
    #expect(fresh["server"]?["pid"]?.intValue == Int(daemon.pid))
    #expect(fresh["server"]?["protocol"] == 2)
    #expect(fresh["server"]?["socket"]?.stringValue == daemon.socketPath)
    #expect(fresh["server"]?["state_directory"]?.stringValue?.hasSuffix("/state") == true)
    #expect(fresh["clients"]?["connections"] == 1)
    #expect(fresh["stats"]?["requests"] == 1)
    #expect(fresh["persistence"]?["sync"] == "deferred")
    #expect(fresh["persistence"]?["snapshot"] == .null)
    let journalBytes = try #require(fresh["persistence"]?["journal_bytes"]?.intValue)

    _ = try await client.call(
      #"{"op":"send","feature":"counter","event":{"type":"set","value":3}}"#)
    _ = try await client.call(#"{"op":"send","feature":"counter","event":{"type":"decrement"}}"#)
    _ = try await client.call(
      #"{"op":"send","feature":"settings","event":{"type":"set","key":"searchLimit","value":500}}"#)
    #expect(
      try await client.call(#"{"op":"send","feature":"counter","event":{"type":"incr"}}"#).errorCode
        == "unknown_event")
    #expect(try await client.call(#"{"op":"fly"}"#).errorCode == "unknown_op")
    let watcher = try daemon.client()
    _ = try await watcher.call(#"{"op":"watch","feature":"counter"}"#)
    let monitor = try daemon.client()
    _ = try await monitor.call(#"{"op":"monitor","features":["counter","settings"]}"#)

    let info = try await client.call(#"{"id":2,"op":"info"}"#)
    #expect(info["clients"] == ["connections": 3, "watching": 1, "monitoring": 1])
    #expect(info["stats"]?["requests"] == 9)
    #expect(info["stats"]?["refused"] == 2)
    #expect(
      info["stats"]?["events"] == [
        "handled": 2, "dropped": 0, "cancelled": 0, "failed": 1, "refused": 1,
      ])
    let counter = try #require(info["features"]?[0])
    #expect(
      counter == ["name": "counter", "seq": 2, "state_bytes": 11, "watchers": 1, "monitors": 1])
    #expect(info["features"]?[1]?["monitors"] == 1)
    #expect(info["features"]?[1]?["watchers"] == 0)
    #expect(info["persistence"]?["journal_bytes"]?.intValue ?? 0 > journalBytes)
    #expect(info["persistence"]?["journal_records"]?.intValue ?? 0 >= 2)
    #expect(info["server"]?["uptime_seconds"]?.intValue ?? -1 >= 0)
  }
}
