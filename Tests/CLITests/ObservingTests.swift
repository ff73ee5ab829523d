import StatectlCore
import Testing
import Wire

/// `get` and `watch` of several features on one connection, `watch --select`, and `monitor`,
/// against the fake daemon speaking the agreed wire additions (PROTOCOL.md).
@Suite(.serialized) struct ObservingTests {
  static func line(_ object: JSONObject) -> [UInt8] {
    Array((JSON.object(object).serializedString() + "\n").utf8)
  }

  @Test func getSeveralFeaturesPipelinesOnOneConnection() {
    let daemon = FakeDaemon { request in
      let feature = request.fields["feature"]?.stringValue ?? ""
      guard feature != "nope" else {
        return Reply.failure(id: request.id, .unknownFeature(feature))
      }
      return Reply.success(id: request.id, fields: ["state": ["name": .string(feature)], "seq": 1])
    }
    let result = runStatectl(["get", "counter", "nope", "settings", "--socket", daemon.path])
    let requests = daemon.finish()  // one connection: the fake accepts only one
    #expect(requests.map { $0.fields["feature"]?.stringValue } == ["counter", "nope", "settings"])
    #expect(result.status == .refused)
    #expect(
      result.standardOutput == """
        {"feature":"counter","state":{"name":"counter"},"seq":1}
        {"feature":"settings","state":{"name":"settings"},"seq":1}

        """)
    // In a pipe the error is JSON too.
    #expect(
      result.standardError.hasPrefix(#"{"ok":false,"status":1,"error":{"code":"unknown_feature","#))
  }

  @Test func getSeveralFeaturesOnATerminal() {
    let daemon = FakeDaemon { request in
      Reply.success(id: request.id, fields: ["state": ["count": 1], "seq": 1])
    }
    let result = runStatectl(["get", "a", "b", "--socket", daemon.path], terminal: true)
    daemon.finish()
    #expect(result.standardOutput == "a:\n  count: 1\nb:\n  count: 1\n")
  }

  @Test func watchSeveralFeaturesOnOneConnection() {
    let daemon = FakeDaemon { request in
      let feature = request.fields["feature"]?.stringValue ?? ""
      var lines = Reply.success(id: request.id, fields: ["state": ["n": 0], "seq": 1])
      if feature == "settings" {
        lines += Push.state(feature: "counter", sequence: 2, state: ["n": 1])
        lines += Push.state(feature: "settings", sequence: 2, state: ["n": 2])
      }
      return lines
    }
    let result = runStatectl(
      ["watch", "counter", "settings", "-n", "4", "--socket", daemon.path], terminal: true)
    let requests = daemon.finish()
    #expect(requests.map(\.op) == ["watch", "watch"])
    #expect(result.status == .success)
    #expect(
      result.standardOutput == """
        counter [1] n: 0
        settings [1] n: 0
        counter [2] n: 1
        settings [2] n: 2

        """)
  }

  @Test func selectSendsThePathAndPrintsTheValues() {
    let daemon = FakeDaemon { request in
      Reply.success(id: request.id, fields: ["seq": 3, "select": "count", "value": 3])
        + Self.line([
          "push": "state", "feature": "counter", "seq": 5, "select": "count", "value": 5,
        ])
    }
    let result = runStatectl(
      ["watch", "counter", "--select", "count", "-n", "2", "--socket", daemon.path])
    let requests = daemon.finish()
    #expect(requests.first?.fields["select"] == "count")
    #expect(
      result.standardOutput == """
        {"feature":"counter","seq":3,"select":"count","value":3}
        {"feature":"counter","seq":5,"select":"count","value":5}

        """)
  }

  /// A daemon that does not select sends whole states: statectl selects and skips repeats.
  @Test func selectFromWholeStatesSkipsRepeats() {
    let daemon = FakeDaemon { request in
      var lines = Reply.success(
        id: request.id, fields: ["state": ["term": "a", "marks": [1]], "seq": 1])
      lines += Push.state(feature: "search", sequence: 2, state: ["term": "b", "marks": [1]])
      lines += Push.state(feature: "search", sequence: 3, state: ["term": "b", "marks": [1, 2]])
      return lines
    }
    let result = runStatectl(
      ["watch", "search", "--select", "marks", "-n", "2", "--socket", daemon.path], terminal: true)
    daemon.finish()
    #expect(result.standardOutput == "[1] [1]\n[3] [1,2]\n")
  }

  @Test func monitorPrintsEveryEventOfTheMonitoredFeatures() {
    let daemon = FakeDaemon { request in
      guard request.op == "monitor" else { return nil }
      var lines = Reply.success(id: request.id, fields: ["monitoring": ["counter"]])
      lines += Self.line([
        "push": "event", "feature": "counter", "event": ["type": "increment"],
        "outcome": "handled", "seq": 5, "before": ["count": 4], "after": ["count": 5],
      ])
      lines += Self.line([
        "push": "event", "feature": "counter", "event": ["type": "set", "value": 99],
        "outcome": "failed", "error": ["code": "out_of_range", "message": "above 10"], "seq": 5,
        "before": ["count": 5], "after": ["count": 5], "future_member": true,
      ])
      return lines
    }
    let result = runStatectl(
      ["monitor", "counter", "-n", "2", "--socket", daemon.path], terminal: true)
    let requests = daemon.finish()
    #expect(
      requests.first?.json.serializedString() == #"{"id":1,"op":"monitor","features":["counter"]}"#)
    #expect(result.status == .success)
    #expect(
      result.standardOutput == """
        [5] counter increment: handled; count: 4 → 5
        [5] counter set (value: 99): failed (out_of_range: above 10); unchanged: count: 5

        """)
  }

  @Test func monitorAsJSONLinesKeepsUnknownMembers() {
    let daemon = FakeDaemon { request in
      Reply.success(id: request.id, fields: ["monitoring": ["counter", "search"]])
        + Self.line([
          "push": "event", "feature": "search", "event": ["type": "clear"], "outcome": "handled",
          "seq": 1, "before": [:], "after": [:], "new": 1,
        ])
    }
    let result = runStatectl(["monitor", "-n", "1", "--socket", daemon.path])
    let requests = daemon.finish()
    #expect(requests.first?.json.serializedString() == #"{"id":1,"op":"monitor"}"#)
    #expect(
      result.standardOutput
        == #"{"feature":"search","event":{"type":"clear"},"outcome":"handled","seq":1,"before":{},"after":{},"new":1}"#
        + "\n")
  }

  @Test func monitorRefusedByAnOlderDaemon() {
    let daemon = FakeDaemon { request in Reply.failure(id: request.id, .unknownOp(request.op)) }
    let result = runStatectl(["monitor", "--socket", daemon.path])
    daemon.finish()
    #expect(result.status == .refused)
    #expect(result.standardError.contains("the daemon does not know 'monitor'"))
  }
}
