import Testing
import Wire

/// Parses a request frame from text.
func request(_ text: String) throws(RequestError) -> Request {
  try Request(parsing: Array(text.utf8))
}

/// Reads `text` as the daemon reads a frame; `body` gets the head while its bytes live (a head
/// borrows them).
func readHead<Result>(
  _ text: String, _ body: (RequestHead) throws -> Result
) throws -> Result {
  try Array(text.utf8).withUnsafeBytes { bytes in try body(RequestHead(reading: bytes)) }
}

/// The error for a request frame, or nil if it parses.
func requestError(_ bytes: [UInt8]) -> RequestError? {
  do {
    _ = try Request(parsing: bytes)
    return nil
  } catch {
    return error
  }
}

@Suite struct RequestTests {
  @Test func parsesIdOpAndFields() throws {
    let parsed = try request(
      #"{"id":3,"op":"send","feature":"counter","event":{"type":"increment","by":2}}"#)
    #expect(parsed.id == .number(3))
    #expect(parsed.op == Request.Op.send)
    #expect(parsed.fields.keys == ["feature", "event"])
    #expect(parsed["feature"] == "counter")
    #expect(parsed["event"] == ["type": "increment", "by": 2])
  }

  @Test func idForms() throws {
    #expect(try request(#"{"op":"ping"}"#).id == nil)
    #expect(try request(#"{"op":"ping","id":"abc"}"#).id == .string("abc"))
    #expect(try request(#"{"op":"ping","id":-5}"#).id == .number(-5))
    #expect(try request(#"{"op":"ping","id":2.0}"#).id == .number(2))
  }

  /// The head finds every op of the protocol by its bytes (no String made), and no other.
  @Test func everyOpIsKnownByItsBytes() {
    for op in Request.Op.all {
      let found = Array(op.utf8).withUnsafeBytes { RequestHead.knownOp($0) }
      #expect(found == op)
    }
    for other in ["", "sen", "sendx", "Send", "unwatcH", "describes"] {
      #expect(Array(other.utf8).withUnsafeBytes { RequestHead.knownOp($0) } == nil)
    }
  }

  /// What the daemon reads: `id` and `op` at once, any other member from the frame's bytes
  /// when an op asks for it, the same value a tree would hold.
  @Test func theHeadReadsMembersStraightFromTheBytes() throws {
    try readHead(
      #" {"op":"send","s":"v","i":4,"o":{"k":[1,2]},"event":{"type":"set","value":5}} "#
    ) { head in
      #expect(head.id == nil)
      #expect(head.op == "send")
      #expect(head["s"] == "v")
      #expect(head["i"] == 4)
      #expect(head["o"] == ["k": [1, 2]])
      #expect(head["nope"] == nil)
      #expect(head.fields.keys == ["s", "i", "o", "event"])
      head.withMember("event") { event in
        #expect(event?.typeName == "object")
        #expect(event?.member("type")?.string == "set")
        #expect(event?.member("value")?.json == 5)
        #expect(event?.count == 2)
        var keys: [String] = []
        event?.forEachMember { key, _ in
          keys.append(key.string)
          return true
        }
        #expect(keys == ["type", "value"])
      }
      head.withMember("o") { object in
        #expect(object?.member("k")?.typeName == "array")
        #expect(object?.member("k")?.count == 2)
      }
    }
  }

  /// A repeated member counts once, with its last value, as in a parsed tree (PROTOCOL.md);
  /// a key written with escapes is the same key.
  @Test func aRepeatedMemberKeepsItsLastValue() throws {
    try readHead(#"{"op":"get","op":"ping","x":1,"x":[2]}"#) { head in
      #expect(head.op == "ping")
      #expect(head["x"] == [2])
    }
    #expect(try readHead(#"{"op":"ping","id":1,"id":"b"}"#) { $0.op } == "ping")
    #expect(try readHead(#"{"op":"ping","id":1,"id":"b"}"#) { $0.id } == "b")
    try readHead(#"{"op":"x","ev\u0065nt":{"typ\u0065":"a"}}"#) { escaped in
      #expect(escaped.withMember("event") { $0?.member("type")?.string } == "a")
    }
    try readHead(#"{"\u006fp":"send","i\u0064":7,"f\u0065ature":"c","op\u0000":1}"#) { keys in
      #expect(keys.op == "send")
      #expect(keys.id == 7)
      #expect(keys.withPlainFeatureName { String(decoding: $0, as: UTF8.self) } == "c")
    }
    // Keys only of the same length, or the same text escaped into another, are not these.
    try readHead(#"{"op":"ping","oq":1,"ide":2,"events":{},"feature\n":"x"}"#) { others in
      #expect(others.id == nil)
      #expect(others.withMember("event") { $0 == nil })
      #expect(others.withPlainFeatureName { _ in true } == nil)
    }
  }

  /// The usual event, its `type` alone and both written as plain text, is noted by the pass
  /// that reads the head (the event's reader then need not scan it); any other is not, and
  /// is read from its members. A repeated `event` counts with its last value.
  @Test func theHeadNotesTheUsualEventsType() throws {
    func soleType(_ text: String) throws -> String? {
      try readHead(text) { head in
        head.withEvent { event, type in
          if type != nil { #expect(event?.isObject == true) }
          return type.map { String(decoding: $0, as: UTF8.self) }
        }
      }
    }
    #expect(try soleType(#"{"op":"send","event":{"type":"increment"}}"#) == "increment")
    #expect(try soleType(" {\"event\" : {\t\"type\" :\r\n \"reset\" } ,\"op\":\"s\"} ") == "reset")
    #expect(try soleType(#"{"op":"s","event":{"type":""}}"#) == "")
    #expect(try soleType(#"{"op":"s","ev\u0065nt":{"type":"a"}}"#) == "a")
    #expect(
      try soleType(#"{"op":"s","event":{"type":"set","value":1},"event":{"type":"a"}}"#) == "a")
    for text in [
      #"{"op":"s","event":{"type":"a"},"event":{"type":"set","value":1}}"#,
      #"{"op":"s","event":{"type":"a"},"event":5}"#, #"{"op":"s","event":{"type":"é"}}"#,
      #"{"op":"s","event":{"type":"in\u0063"}}"#, #"{"op":"s","event":{"ty\u0070e":"a"}}"#,
      #"{"op":"s","event":{"typ":"a"}}"#, #"{"op":"s","event":{"types":"a"}}"#,
      #"{"op":"s","event":{"Type":"a"}}"#, #"{"op":"s","event":{"tyqe":"a"}}"#,
      #"{"op":"s","event":{"type":5}}"#, #"{"op":"s","event":{}}"#,
      #"{"op":"s","event":"type"}"#, #"{"op":"s","event":["type","a"]}"#,
      #"{"op":"s","event":{"type":"a","type":"a"}}"#, #"{"op":"s","evenT":{"type":"a"}}"#,
      #"{"op":"s","x":{"type":"a"}}"#, #"{"op":"send"}"#,
    ] {
      #expect(try soleType(text) == nil, "\(text)")
    }
  }

  @Test(
    arguments: [
      // (frame, code, message, echoed id)
      (
        #"{"op":"#, ErrorCode.parseError,
        "malformed JSON: expected a value, found end of input at byte 6", nil
      ),
      (
        #"{"op":"ping"} x"#, .parseError,
        "malformed JSON: expected end of input after the JSON value, found 'x' at byte 14", nil
      ),
      (#"[1,2]"#, .notAnObject, "request must be a JSON object, got array", nil),
      (#""ping""#, .notAnObject, "request must be a JSON object, got string", nil),
      (#"{"id":1}"#, .missingField, "missing field 'op'", RequestID.number(1)),
      (#"{"id":"a","op":7}"#, .invalidField, "field 'op' must be a string, got number", "a"),
      (
        #"{"op":"get","id":true}"#, .invalidField,
        "field 'id' must be an integer or a string, got boolean", nil
      ),
      (
        #"{"op":"get","id":1.5}"#, .invalidField,
        "field 'id' must be an integer or a string, got number", nil
      ),
      (
        #"{"op":"get","id":null}"#, .invalidField,
        "field 'id' must be an integer or a string, got null", nil
      ),
      (
        #"{"op":"get","id":{"x":1}}"#, .invalidField,
        "field 'id' must be an integer or a string, got object", nil
      ),
    ] as [(String, ErrorCode, String, RequestID?)])
  func protocolErrors(frame: String, code: ErrorCode, message: String, id: RequestID?) {
    let error = requestError(Array(frame.utf8))
    #expect(error?.error.code == code)
    #expect(error?.error.message == message)
    #expect(error?.id == id)
  }

  /// The whole frame is checked before any member is read: a syntax error anywhere comes
  /// first, with the parser's message.
  @Test func aSyntaxErrorAnywhereComesBeforeTheMembers() {
    let error = requestError(Array(#"{"op":7,"event":{"type":"a",}}"#.utf8))
    #expect(error?.error.code == .parseError)
    #expect(
      error?.error.message == "malformed JSON: expected string key after ',', found '}' at byte 28")
  }

  @Test func invalidUTF8HasItsOwnCode() {
    let error = requestError([0x7B, 0x22, 0x6F, 0x70, 0xFE, 0x22, 0x7D])
    #expect(error?.error == WireError(.invalidUTF8, "invalid UTF-8 at byte 4"))
    #expect(error?.id == nil)
  }

  @Test func errorReplyEchoesTheId() {
    let error = requestError(Array(#"{"id":9}"#.utf8))
    #expect(
      error?.reply
        == Array(
          #"{"id":9,"ok":false,"error":{"code":"missing_field","message":"missing field 'op'"}}"#
            .utf8) + [0x0A])
  }

  @Test func serializationPutsIdAndOpFirst() throws {
    let built = Request(
      id: 1, op: Request.Op.send, fields: ["feature": "counter", "event": ["type": "reset"]])
    let line = built.serialized()
    #expect(
      line == Array(#"{"id":1,"op":"send","feature":"counter","event":{"type":"reset"}}"#.utf8) + [
        0x0A
      ])
    #expect(try Request(parsing: line.dropLast()) == built)
    #expect(Request(op: "ping").serialized() == Array(#"{"op":"ping"}"#.utf8) + [0x0A])
    #expect(Request(id: "x", op: "get").json == ["id": "x", "op": "get"])
  }

  @Test func opNames() {
    #expect(Request.Op.all.count == 15)
    #expect(Set(Request.Op.all).count == 15)
    #expect(Request.Op.all.contains("info"))
    #expect(Request.Op.all.contains("history") && Request.Op.all.contains("goto"))
    #expect(Request.Op.all.contains("restore"))
    #expect(Request.Op.all.contains("unwatch"))
    #expect(Request.Op.all.contains("monitor"))
  }

  @Test func errorCodesAreSnakeCaseAndExtensible() {
    let codes: [ErrorCode] = [
      .parseError, .invalidUTF8, .notAnObject, .missingField, .invalidField, .unknownOp,
      .unknownFeature, .unknownEvent, .frameTooLarge, .eventFailed, .notSupported, .internalError,
    ]
    #expect(
      codes.map(\.rawValue) == [
        "parse_error", "invalid_utf8", "not_an_object", "missing_field", "invalid_field",
        "unknown_op", "unknown_feature", "unknown_event", "frame_too_large", "event_failed",
        "not_supported", "internal_error",
      ])
    let custom: ErrorCode = "busy"
    #expect(custom == ErrorCode(rawValue: "busy"))
    #expect(WireError.unknownOp("jump").description == "unknown_op: unknown op 'jump'")
    #expect(
      WireError.unknownEvent("fly", feature: "counter").message
        == "feature 'counter' has no event 'fly'")
    #expect(
      WireError.frameTooLarge(byteCount: 2_000_000, limit: 1_048_576).message
        == "frame of at least 2000000 bytes exceeds the limit of 1048576 bytes")
  }
}
