import BlocCore
import Glibc
import StateServer
import Testing
import Wire

/// The protocol through the real dispatcher and transport, in-process, with a test feature.
@Suite("Dispatcher")
struct DispatcherTests {
  @Test func pingFeaturesAndDescribe() async throws {
    try await withDispatcher { path, _, _ in
      let client = try TestClient(path: path)
      let ping = try await client.call(#"{"id":1,"op":"ping"}"#)
      #expect(ping == ["id": 1, "ok": true, "daemon": "test", "protocol": 2])

      let features = try await client.call(#"{"id":"f","op":"features"}"#)
      #expect(features["id"] == "f")
      #expect(
        features["features"]
          == [
            ["name": "tally", "summary": "A test tally."],
            ["name": "plain", "summary": "A tally without history."],
          ])

      let describe = try await client.call(#"{"op":"describe","feature":"tally"}"#)
      #expect(describe["undo_redo"] == true)
      #expect(describe["events"]?.arrayValue?.count == TallyEvent.declaration.cases.count)
      let add = try #require(describe["events"]?[0])
      #expect(add["type"] == "add")
      #expect(
        add["fields"]?[0]
          == [
            "name": "by", "type": "integer", "expects": "integer 1…1000", "required": false,
            "summary": "How much to add.", "example": 2, "minimum": 1, "maximum": 1000,
          ])
      let label = try #require(describe["events"]?[3]?["fields"])
      #expect(label[1]?["values"] == ["red", "green"])
      #expect(describe["state_shape"]?[0]?["name"] == "count")
      let plain = try await client.call(#"{"op":"describe","feature":"plain"}"#)
      #expect(plain["undo_redo"] == false)
    }
  }

  @Test func sendReplyCarriesOutcomeStateAndSeq() async throws {
    try await withDispatcher { path, _, _ in
      let client = try TestClient(path: path)
      let first = try await client.call(
        #"{"id":1,"op":"send","feature":"tally","event":{"type":"add","by":2}}"#)
      #expect(
        first == [
          "id": 1, "ok": true, "outcome": "handled", "state": ["count": 2, "label": ""], "seq": 1,
        ])
      let labelled = try await client.call(
        #"{"id":2,"op":"send","feature":"tally","event":{"type":"label","text":"a/b","color":"red"}}"#
      )
      #expect(labelled["state"] == ["count": 2, "label": "a/b"])
      #expect(labelled.int("seq") == 2)
      let get = try await client.call(#"{"id":3,"op":"get","feature":"tally"}"#)
      #expect(get == ["id": 3, "ok": true, "state": ["count": 2, "label": "a/b"], "seq": 2])
    }
  }

  @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
    try await withDispatcher { path, _, _ in
      let client = try TestClient(path: path)
      let count = 2000
      var batch = ""
      for id in 1...count {
        batch += #"{"id":\#(id),"op":"send","feature":"tally","event":{"type":"add"}}"# + "\n"
      }
      batch += #"{"id":"last","op":"get","feature":"tally"}"# + "\n"
      try client.write(batch)
      let lines = try await client.readLines(count + 1, timeout: .seconds(60))
      for (index, line) in lines.dropLast().enumerated() {
        let reply = try JSON(parsing: line)
        #expect(reply.int("id") == index + 1)
        #expect(reply["outcome"] == "handled")
      }
      // A get pipelined after sends sees all of them.
      let last = try JSON(parsing: lines.last!)
      #expect(last["id"] == "last")
      #expect(last["state"]?["count"] == JSON(count))
      #expect(last.int("seq") == count)
    }
  }

  @Test func failedEventRepliesEventFailedWithUnchangedState() async throws {
    try await withDispatcher { path, _, _ in
      let client = try TestClient(path: path)
      _ = try await client.call(#"{"op":"send","feature":"tally","event":{"type":"add"}}"#)
      let failed = try await client.call(
        #"{"id":9,"op":"send","feature":"tally","event":{"type":"fail","message":"no way"}}"#)
      #expect(
        failed == [
          "id": 9, "ok": false, "error": ["code": "event_failed", "message": "no way"],
          "outcome": "failed", "state": ["count": 1, "label": ""], "seq": 1,
        ])
    }
  }

  @Test(arguments: [
    ("{\"op\":", "parse_error", "malformed JSON"),
    ("[1,2]", "not_an_object", "got array"),
    ("{\"id\":1}", "missing_field", "'op'"),
    ("{\"op\":7}", "invalid_field", "'op' must be a string"),
    ("{\"id\":[1],\"op\":\"ping\"}", "invalid_field", "'id'"),
    ("{\"op\":\"jump\"}", "unknown_op", "valid ops: send, get, watch"),
    ("{\"op\":\"get\"}", "missing_field", "'feature' (a string naming a feature: tally, plain)"),
    ("{\"op\":\"get\",\"feature\":3}", "invalid_field", "'feature' must be a string"),
    ("{\"op\":\"get\",\"feature\":\"nope\"}", "unknown_feature", "features: tally, plain"),
    ("{\"op\":\"send\",\"feature\":\"tally\"}", "missing_field", "'event'"),
    ("{\"op\":\"send\",\"feature\":\"tally\",\"event\":5}", "invalid_field", "'event' must be"),
    ("{\"op\":\"send\",\"feature\":\"tally\",\"event\":{}}", "missing_field", "'event.type'"),
    (
      "{\"op\":\"send\",\"feature\":\"tally\",\"event\":{\"type\":\"jump\"}}", "unknown_event",
      "valid types: add, set, fail, label, slow"
    ),
    (
      "{\"op\":\"send\",\"feature\":\"tally\",\"event\":{\"type\":\"set\"}}", "missing_field",
      "'event.value' (integer)"
    ),
    (
      "{\"op\":\"send\",\"feature\":\"tally\",\"event\":{\"type\":\"set\",\"value\":\"3\"}}",
      "invalid_field", "'event.value' must be integer, got \"3\""
    ),
    (
      "{\"op\":\"send\",\"feature\":\"tally\",\"event\":{\"type\":\"add\",\"by\":0}}",
      "invalid_field", "'event.by' must be integer 1…1000, got 0"
    ),
    (
      "{\"op\":\"send\",\"feature\":\"tally\",\"event\":{\"type\":\"add\",\"by\":1.5}}",
      "invalid_field", "'event.by' must be integer 1…1000 written as digits only"
    ),
    (
      "{\"op\":\"send\",\"feature\":\"tally\",\"event\":{\"type\":\"add\",\"bye\":1}}",
      "invalid_field", "no field 'bye'"
    ),
    (
      "{\"op\":\"send\",\"feature\":\"tally\",\"event\":{\"type\":\"label\",\"text\":\"x\",\"color\":\"blue\"}}",
      "invalid_field", "must be one of red | green, got \"blue\""
    ),
    (
      "{\"op\":\"send\",\"feature\":\"tally\",\"event\":{\"type\":\"label\",\"text\":\"x\",\"tags\":[\"a\",2]}}",
      "invalid_field", "no field 'tags'"
    ),
    ("{\"op\":\"undo\",\"feature\":\"plain\"}", "not_supported", "features with history: tally"),
  ])
  func badInputGetsAPreciseErrorAndChangesNothing(
    line: String, code: String, hint: String
  )
    async throws
  {
    try await withDispatcher { path, _, _ in
      let client = try TestClient(path: path)
      _ = try await client.call(#"{"op":"send","feature":"tally","event":{"type":"add"}}"#)
      _ = try await client.call(#"{"op":"send","feature":"plain","event":{"type":"add"}}"#)
      let reply = try await client.call(line)
      #expect(reply["ok"] == false)
      #expect(reply.errorCode == code)
      #expect(reply.errorMessage.contains(hint), "\(reply.errorMessage)")
      for feature in ["tally", "plain"] {
        let get = try await client.call(#"{"op":"get","feature":"\#(feature)"}"#)
        #expect(get["state"] == ["count": 1, "label": ""])
        #expect(get.int("seq") == 1)
      }
    }
  }

  @Test func invalidUTF8IsReportedWithTheIdUnknown() async throws {
    try await withDispatcher { path, _, _ in
      let client = try TestClient(path: path)
      try client.write(Array(#"{"id":1,"op":"ping","x":""#.utf8) + [0xFF, 0x22, 0x7D, 0x0A])
      let reply = try await client.next()
      #expect(reply.errorCode == "invalid_utf8")
      #expect(try await client.call(#"{"op":"ping"}"#)["ok"] == true)
    }
  }

  @Test func undoAndRedo() async throws {
    try await withDispatcher { path, _, _ in
      let client = try TestClient(path: path)
      _ = try await client.call(
        #"{"op":"send","feature":"tally","event":{"type":"set","value":5}}"#)
      _ = try await client.call(
        #"{"op":"send","feature":"tally","event":{"type":"set","value":7}}"#)
      let undo = try await client.call(#"{"id":1,"op":"undo","feature":"tally"}"#)
      #expect(
        undo == [
          "id": 1, "ok": true, "changed": true, "state": ["count": 5, "label": ""], "seq": 3,
        ])
      let redo = try await client.call(#"{"id":2,"op":"redo","feature":"tally"}"#)
      #expect(redo["state"]?["count"] == 7)
      let again = try await client.call(#"{"id":3,"op":"redo","feature":"tally"}"#)
      #expect(again["changed"] == false)
      #expect(again.int("seq") == 4)
    }
  }

  @Test func watchPushesLaterStatesUntilUnwatch() async throws {
    try await withDispatcher { path, _, _ in
      let watcher = try TestClient(path: path)
      let sender = try TestClient(path: path)
      let watch = try await watcher.call(#"{"id":1,"op":"watch","feature":"tally"}"#)
      #expect(watch == ["id": 1, "ok": true, "state": ["count": 0, "label": ""], "seq": 0])
      _ = try await sender.call(#"{"op":"send","feature":"tally","event":{"type":"add"}}"#)
      let push = try await watcher.next()
      #expect(
        push == [
          "push": "state", "feature": "tally", "seq": 1, "state": ["count": 1, "label": ""],
        ])
      // An equal state is no change: no push.
      _ = try await sender.call(
        #"{"op":"send","feature":"tally","event":{"type":"set","value":1}}"#)
      let unwatch = try await watcher.call(#"{"id":2,"op":"unwatch","feature":"tally"}"#)
      #expect(unwatch == ["id": 2, "ok": true, "was_watching": true])
      _ = try await sender.call(#"{"op":"send","feature":"tally","event":{"type":"add"}}"#)
      let ping = try await watcher.call(#"{"id":3,"op":"ping"}"#)
      #expect(ping["id"] == 3)  // no push arrived in between
      let again = try await watcher.call(#"{"id":4,"op":"unwatch","feature":"tally"}"#)
      #expect(again["was_watching"] == false)
    }
  }

  @Test func aSlowWatcherSeesTheLatestStateWithAGapAndBlocksNobody() async throws {
    try await withDispatcher { path, _, registry in
      let slow = try TestClient(path: path)
      let fast = try TestClient(path: path)
      let sender = try TestClient(path: path)
      _ = try await slow.call(#"{"op":"watch","feature":"tally"}"#)
      _ = try await fast.call(#"{"op":"watch","feature":"tally"}"#)
      // `slow` reads nothing while many changes happen.
      let total = 5000
      let line = #"{"op":"send","feature":"tally","event":{"type":"add"}}"# + "\n"
      try sender.write(String(repeating: line, count: total))
      let replies = try await sender.readLines(total, timeout: .seconds(60))
      #expect(replies.count == total)
      // The fast watcher keeps up: it eventually sees the final state.
      var lastFast = 0
      while lastFast < total {
        let push = try await fast.next()
        let seq = try #require(push.int("seq"))
        #expect(seq > lastFast)
        lastFast = seq
      }
      // The slow one gets few lines, the last being the final state.
      var pushes: [Int] = []
      while pushes.last != total {
        let push = try await slow.next()
        pushes.append(try #require(push.int("seq")))
      }
      #expect(pushes.count < total / 2, "coalescing should skip states: \(pushes.count) pushes")
      #expect(zip(pushes, pushes.dropFirst()).allSatisfy { $0 < $1 })
      #expect(registry.feature(named: "tally")?.watcherCount == 2)
    }
  }

  @Test func closingAConnectionEndsItsWatches() async throws {
    try await withDispatcher { path, _, registry in
      do {
        let watcher = try TestClient(path: path)
        _ = try await watcher.call(#"{"op":"watch","feature":"tally"}"#)
        #expect(registry.feature(named: "tally")?.watcherCount == 1)
      }
      #expect(await eventually { registry.feature(named: "tally")?.watcherCount == 0 })
    }
  }

  @Test func endOfInputStillAnswersEventsInFlight() async throws {
    try await withDispatcher { path, _, _ in
      let client = try TestClient(path: path)
      try client.write(
        #"{"id":1,"op":"send","feature":"tally","event":{"type":"slow","milliseconds":100}}"#
          + "\n" + #"{"id":2,"op":"get","feature":"tally"}"# + "\n")
      client.shutdownWrite()
      let lines = try await client.readToEnd()
      #expect(lines.count == 2)
      #expect(try JSON(parsing: lines[0])["outcome"] == "handled")
      #expect(try JSON(parsing: lines[1])["state"]?["count"] == 1)
    }
  }

  @Test func oversizedFrameIsRefusedAndOthersKeepWorking() async throws {
    try await withDispatcher(maxFrameBytes: 256) { path, _, _ in
      let other = try TestClient(path: path)
      let client = try TestClient(path: path)
      try client.write(#"{"op":"ping","pad":""# + String(repeating: "x", count: 400) + "\"}\n")
      let lines = try await client.readToEnd()
      #expect(lines.count == 1)
      let reply = try JSON(parsing: lines[0])
      #expect(reply.errorCode == "frame_too_large")
      #expect(reply.errorMessage.contains("limit of 256 bytes"))
      #expect(try await other.call(#"{"op":"ping"}"#)["ok"] == true)
    }
  }

  @Test func shutdownAnswersEventsInFlight() async throws {
    let registry = FeatureRegistry()
    let tally = TallyBloc()
    registry.register(TallyFeature.self, tally)
    let dispatcher = RequestDispatcher(registry: registry, version: "test")
    let directory = TemporaryDirectory()
    var configuration = ServerConfiguration(socketPath: directory.socketPath, environment: [:])
    configuration.log = { _ in }
    let server = Server(
      configuration: configuration, delegate: dispatcher, drain: { await dispatcher.drain() })
    try server.start()
    let client = try TestClient(path: directory.socketPath)
    try client.write(
      #"{"id":1,"op":"send","feature":"tally","event":{"type":"slow","milliseconds":300}}"# + "\n")
    #expect(await eventually { tally.slowStarted.withLock { $0 } == 1 })
    server.shutdown()
    #expect(await stopped(server))
    let lines = try await client.readToEnd()
    try #require(lines.count == 1)
    #expect(try JSON(parsing: lines[0])["outcome"] == "handled")
    await registry.closeAll()
  }
}
