import BlocCore
import BlocJournal
import Foundation
import Glibc
import Testing
import Wire

/// `history`, `goto` and `restore` against the real daemon (PROTOCOL.md, "history", "goto and
/// restore"): every change retained with its seq, cause and time, across restarts and
/// compaction; bad input refused with what is accepted, and nothing changed.
@Suite("history, goto and restore", .serialized)
struct TimeTravelTests {
  static func set(_ value: Int) -> String {
    #"{"op":"send","feature":"counter","event":{"type":"set","value":\#(value)}}"#
  }

  static func history(_ client: TestClient, _ fields: String = "") async throws -> JSON {
    try await client.call(#"{"op":"history","feature":"counter"\#(fields)}"#)
  }

  static func seqs(_ history: JSON) -> [Int] {
    history["transitions"]?.arrayValue?.compactMap { $0["seq"]?.intValue } ?? []
  }

  static func counts(_ history: JSON) -> [Int] {
    history["transitions"]?.arrayValue?.compactMap { $0["state"]?["count"]?.intValue } ?? []
  }

  static func stop(_ daemon: DaemonProcess) async throws {
    daemon.signal(SIGTERM)
    #expect(try await daemon.waitForExit() == 0)
  }

  @Test func historySurvivesARestartAndACompaction() async throws {
    let directory = TemporaryDirectory()
    do {
      let daemon = try await DaemonProcess(directory: directory)
      let client = try daemon.client()
      for value in 1...5 { _ = try await client.call(Self.set(value)) }
      try await Self.stop(daemon)
    }
    let restarted = try await DaemonProcess(directory: directory)
    var client = try restarted.client()
    let before = try await Self.history(client)
    #expect(before["oldest"] == 1)
    #expect(before["seq"] == 5)
    #expect(Self.seqs(before) == [1, 2, 3, 4, 5])
    #expect(Self.counts(before) == [1, 2, 3, 4, 5])
    let first = try #require(before["transitions"]?[0])
    #expect(first["cause"] == "event")
    #expect(first["event"] == ["type": "set", "value": 1])
    #expect(first["outcome"] == "handled")
    let time = try #require(first["time"]?.stringValue)
    #expect(time.hasSuffix("Z") && time.count == "2026-12-01T19:20:01.123Z".count, "\(time)")
    #expect(try await client.call(Self.set(6))["seq"] == 6, "seq continues after a restart")
    try await Self.stop(restarted)

    // Compacted: a storage that compacts after every record rewrites the daemon's journal into
    // a snapshot and deletes it; the history must come back from the snapshot.
    let state = URL(fileURLWithPath: restarted.stateDirectory, isDirectory: true)
    let storage = try JournalStorage(directory: state, limits: .init(records: 1))
    try storage.write("compaction-probe", Data("{}".utf8))
    storage.close()
    let files = try FileManager.default.contentsOfDirectory(atPath: state.path)
    #expect(files.contains { $0.hasPrefix("snapshot.") }, "\(files)")
    #expect(!files.contains("journal.00000001.log"), "\(files)")

    let compacted = try await DaemonProcess(directory: directory)
    client = try compacted.client()
    let after = try await Self.history(client)
    #expect(Self.seqs(after) == [1, 2, 3, 4, 5, 6])
    #expect(Self.counts(after) == [1, 2, 3, 4, 5, 6])
    #expect(after["transitions"]?[0] == before["transitions"]?[0], "the same change, same time")
    #expect(try await client.call(#"{"op":"get","feature":"counter"}"#)["seq"] == 6)
    try await Self.stop(compacted)
  }

  @Test func gotoIsAChangeThatUndoReverts() async throws {
    let daemon = try await DaemonProcess()
    let client = try daemon.client()
    for value in 1...3 { _ = try await client.call(Self.set(value)) }
    #expect(
      try await client.call(#"{"id":1,"op":"goto","feature":"counter","seq":1}"#) == [
        "id": 1, "ok": true, "changed": true, "state": ["count": 1], "seq": 4,
      ])
    let gone = try await Self.history(client, #","last":1"#)
    #expect(gone["transitions"]?[0]?["cause"] == "goto")
    #expect(gone["transitions"]?[0]?["target"] == 1)
    #expect(gone["transitions"]?[0]?["event"] == nil)
    #expect(
      try await client.call(#"{"op":"undo","feature":"counter"}"#) == [
        "ok": true, "changed": true, "state": ["count": 3], "seq": 5,
      ])
    let undone = try await Self.history(client, #","since":4"#)
    #expect(Self.seqs(undone) == [4, 5])
    #expect(undone["transitions"]?[1]?["cause"] == "undo")
    // Going to the state it is in changes nothing.
    #expect(
      try await client.call(#"{"op":"goto","feature":"counter","seq":3}"#) == [
        "ok": true, "changed": false, "state": ["count": 3], "seq": 5,
      ])
    // Settings keeps no undo history, but has retained changes to go to.
    let step =
      #"{"op":"send","feature":"settings","event":{"type":"set","key":"counterStep","value":4}}"#
    _ = try await client.call(step)
    let back = try await client.call(#"{"op":"goto","feature":"settings","seq":1}"#)
    #expect(back["state"]?["counterStep"] == 4)
    #expect(back["changed"] == false)
  }

  @Test func badGotosAndHistoriesAreRefusedAndChangeNothing() async throws {
    let daemon = try await DaemonProcess()
    let client = try daemon.client()
    for value in 1...3 { _ = try await client.call(Self.set(value)) }
    func refusal(_ request: String) async throws -> (String?, String?) {
      let reply = try await client.call(request)
      #expect(reply["ok"] == false, "\(request)")
      return (reply["error"]?["code"]?.stringValue, reply["error"]?["message"]?.stringValue)
    }
    let goto = #"{"op":"goto","feature":"counter","seq":"#
    #expect(
      try await refusal(goto + "0}")
        == (
          "seq_not_retained",
          "seq 0 is not retained for 'counter': it is older than the oldest retained; "
            + "retained: 1…3"
        ))
    #expect(
      try await refusal(goto + "4}")
        == (
          "seq_not_retained",
          "seq 4 is not retained for 'counter': it is in the future (the newest is 3); "
            + "retained: 1…3"
        ))
    for bad in ["-1", "1.5", "\"2\"", "null", "1e0"] {
      let (code, message) = try await refusal(goto + bad + "}")
      #expect(code == "invalid_field", "\(bad)")
      #expect(message?.hasPrefix("field 'seq' must be a seq: an integer from 0") == true, "\(bad)")
    }
    #expect(
      try await refusal(#"{"op":"goto","feature":"counter"}"#).0 == "missing_field")
    #expect(
      try await refusal(#"{"op":"goto","feature":"countr","seq":1}"#).0 == "unknown_feature")
    #expect(
      try await refusal(#"{"op":"history","feature":"countr"}"#).0 == "unknown_feature")
    #expect(
      try await refusal(#"{"op":"history","feature":"search"}"#).0 == "not_supported")
    for fields in [
      #""last":0"#, #""last":1001"#, #""last":"3""#, #""since":-1"#, #""last":1,"since":1"#,
    ] {
      let (code, _) = try await refusal(#"{"op":"history","feature":"counter",\#(fields)}"#)
      #expect(code == "invalid_field", "\(fields)")
    }
    #expect(
      try await client.call(#"{"op":"get","feature":"counter"}"#) == [
        "ok": true, "state": ["count": 3], "seq": 3,
      ])
    #expect(Self.seqs(try await Self.history(client)) == [1, 2, 3])
  }

  @Test func restoreSetsAWholeStateOrRefusesAWrongShape() async throws {
    let daemon = try await DaemonProcess()
    let client = try daemon.client()
    #expect(
      try await client.call(#"{"op":"restore","feature":"counter","state":{"count":7}}"#) == [
        "ok": true, "changed": true, "state": ["count": 7], "seq": 1,
      ])
    let restored = try await Self.history(client)
    #expect(restored["transitions"]?[0]?["cause"] == "restore")
    for (state, message) in [
      (
        #"{"cnt":5}"#,
        "the state of 'counter' has no field 'cnt' (at 'state.cnt'); its fields: count (integer)"
      ),
      (
        "{}",
        "field 'state.count' (integer) is missing: a restored state is whole; its fields: count (integer)"
      ),
      (
        "5",
        "field 'state' must be an object, a state of 'counter' as get shows it (fields: count (integer)); got number"
      ),
    ] {
      let reply = try await client.call(#"{"op":"restore","feature":"counter","state":\#(state)}"#)
      #expect(reply["error"]?["code"] == "invalid_field", "\(state)")
      #expect(reply["error"]?["message"]?.stringValue == message, "\(state)")
    }
    let typed = try await client.call(
      #"{"op":"restore","feature":"counter","state":{"count":"seven"}}"#)
    #expect(typed["error"]?["code"] == "invalid_field")
    #expect(
      typed["error"]?["message"]?.stringValue?.hasPrefix(
        "field 'state' is not a state of 'counter': at 'state.count'") == true,
      "\(typed)")
    let missing = try await client.call(#"{"op":"restore","feature":"counter"}"#)
    #expect(missing["error"]?["code"] == "missing_field")
    // A settings state that breaks its rules is refused by its own validation.
    let settings = try await client.call(#"{"op":"get","feature":"settings"}"#)
    guard case .object(var values)? = settings["state"] else {
      Issue.record("no settings state")
      return
    }
    values.updateValue(500, forKey: "searchLimit")
    let invalid = try await client.call(
      #"{"op":"restore","feature":"settings","state":\#(JSON.object(values))}"#)
    #expect(invalid["error"]?["code"] == "invalid_field", "\(invalid)")
    #expect(
      try await client.call(#"{"op":"get","feature":"counter"}"#) == [
        "ok": true, "state": ["count": 7], "seq": 1,
      ])
    #expect(try await client.call(#"{"op":"get","feature":"settings"}"#) == settings)
  }

  @Test func theHistoryLimitKeepsTheNewestChanges() async throws {
    let directory = TemporaryDirectory()
    let daemon = try await DaemonProcess(directory: directory, arguments: ["--history-limit", "3"])
    let client = try daemon.client()
    for value in 1...5 { _ = try await client.call(Self.set(value)) }
    let history = try await Self.history(client)
    #expect(history["oldest"] == 3)
    #expect(Self.seqs(history) == [3, 4, 5])
    let old = try await client.call(#"{"op":"goto","feature":"counter","seq":2}"#)
    #expect(
      old["error"]?["message"]
        == "seq 2 is not retained for 'counter': it is older than the oldest retained; retained: 3…5"
    )
    #expect(try await Self.history(client, #","last":4"#)["error"]?["code"] == "invalid_field")
    try await Self.stop(daemon)
    let restarted = try await DaemonProcess(
      directory: directory, arguments: ["--history-limit", "3"])
    #expect(Self.seqs(try await Self.history(try restarted.client())) == [3, 4, 5])
    try await Self.stop(restarted)
    let refused = try await DaemonProcess.run(["--history-limit", "0"])
    #expect(refused.status == 64)
    #expect(refused.output.contains("--history-limit must be an integer from 1 to 1000000"))
  }
}
