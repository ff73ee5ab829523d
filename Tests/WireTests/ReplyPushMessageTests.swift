import Testing
import Wire

func line(_ text: String) -> [UInt8] { Array(text.utf8) + [0x0A] }

@Suite struct ReplyPushMessageTests {
  @Test func successShapes() {
    #expect(
      Reply.success(id: 7, fields: ["outcome": "handled", "state": ["count": 1]])
        == line(#"{"id":7,"ok":true,"outcome":"handled","state":{"count":1}}"#))
    #expect(Reply.success(id: nil) == line(#"{"ok":true}"#))
    #expect(
      Reply.success(id: "a\"b", fields: ["daemon": "0.1.0", "protocol": 1])
        == line(#"{"id":"a\"b","ok":true,"daemon":"0.1.0","protocol":1}"#))
    #expect(
      Reply.success(id: -3, fields: ["id": 1, "ok": false, "x": nil])
        == line(#"{"id":-3,"ok":true,"x":null}"#))
  }

  @Test func failureShapes() {
    #expect(
      Reply.failure(id: 2, .unknownFeature("nope"))
        == line(
          #"{"id":2,"ok":false,"error":{"code":"unknown_feature","message":"unknown feature 'nope'"}}"#
        ))
    #expect(
      Reply.failure(id: nil, WireError(.internalError, "line1\nline2"))
        == line(#"{"ok":false,"error":{"code":"internal_error","message":"line1\nline2"}}"#))
  }

  @Test func pushShape() {
    #expect(
      Push.state(feature: "counter", sequence: 7, state: ["count": 3, "busy": false])
        == line(#"{"push":"state","feature":"counter","seq":7,"state":{"count":3,"busy":false}}"#))
  }

  @Test func everyBuiltLineIsOneValidJSONLine() throws {
    let lines = [
      Reply.success(id: "\n", fields: ["s": "\n\r"]), Reply.failure(id: 1, WireError("x\n", "y\n")),
      Push.state(feature: "f\n", sequence: 0, state: "\n"),
    ]
    for built in lines {
      #expect(built.last == 0x0A)
      #expect(built.dropLast().contains(0x0A) == false)
      _ = try JSON(parsing: built.dropLast())
    }
  }

  @Test func classifiesReplies() throws {
    let ok = try Message(parsing: Reply.success(id: 4, fields: ["state": ["n": 1]]).dropLast())
    #expect(ok == .reply(ReplyMessage(id: 4, ok: true, fields: ["state": ["n": 1]])))

    let failed = try Message(parsing: Reply.failure(id: nil, .unknownOp("x")).dropLast())
    guard case .reply(let reply) = failed else {
      Issue.record("not a reply: \(failed)")
      return
    }
    #expect(reply.id == nil)
    #expect(reply.ok == false)
    #expect(reply.error == .unknownOp("x"))
    #expect(reply.fields["error"]?["code"] == "unknown_op")
  }

  @Test func classifiesPushes() throws {
    let message = try Message(
      parsing: Push.state(feature: "counter", sequence: 9, state: [1]).dropLast())
    #expect(
      message == .push(PushMessage(kind: "state", feature: "counter", sequence: 9, state: [1])))
    let other = try Message(
      parsing: Array(#"{"push":"gone","feature":"f","seq":1,"why":"x"}"#.utf8))
    #expect(
      other
        == .push(
          PushMessage(kind: "gone", feature: "f", sequence: 1, state: nil, fields: ["why": "x"])))
    // watch … select and monitor pushes.
    let selected = try Message(
      parsing: Array(
        #"{"push":"state","feature":"counter","seq":5,"select":"count","value":5}"#.utf8))
    #expect(
      selected
        == .push(
          PushMessage(
            kind: "state", feature: "counter", sequence: 5, state: nil,
            fields: ["select": "count", "value": 5])))
    let event = try Message(
      parsing: Array(
        #"{"push":"event","feature":"counter","event":{"type":"increment"},"outcome":"handled","seq":5,"before":{"count":4},"after":{"count":5}}"#
          .utf8))
    guard case .push(let push) = event else {
      Issue.record("not a push: \(event)")
      return
    }
    #expect(push.kind == Push.eventKind)
    #expect(push.fields["after"] == ["count": 5])
  }

  @Test(arguments: [
    (#"[]"#, WireError(.notAnObject, "message must be a JSON object, got array")),
    (#"{"id":1}"#, WireError(.missingField, "message has neither 'ok' nor 'push'")),
    (#"{"ok":"yes"}"#, WireError(.invalidField, "field 'ok' must be a boolean, got string")),
    (#"{"ok":false}"#, WireError(.missingField, "missing field 'error'")),
    (
      #"{"ok":false,"error":"bad"}"#,
      WireError(
        .invalidField,
        "field 'error' must be an object with string 'code' and 'message', got string")
    ),
    (
      #"{"ok":true,"id":[]}"#,
      WireError(.invalidField, "field 'id' must be an integer or a string, got array")
    ),
    (#"{"push":"state","seq":1,"state":{}}"#, WireError(.missingField, "missing field 'feature'")),
    (
      #"{"push":"state","feature":"f","state":{}}"#, WireError(.missingField, "missing field 'seq'")
    ),
    (#"{"push":"state","feature":"f","seq":1}"#, WireError(.missingField, "missing field 'state'")),
    (
      #"{"push":"state","feature":"f","seq":"1","state":1}"#,
      WireError(.invalidField, "field 'seq' must be an integer, got string")
    ),
    (#"{"push":1}"#, WireError(.invalidField, "field 'push' must be a string, got number")),
    (
      #"{"ok":true"#,
      WireError(
        .parseError,
        "malformed JSON: expected ',' or '}' after object member, found end of input at byte 10")
    ),
  ])
  func malformedMessages(text: String, expected: WireError) {
    #expect(throws: expected) { try Message(parsing: Array(text.utf8)) }
  }

  @Test func protocolVersion() {
    #expect(ProtocolInfo.version == 2)
  }
}
