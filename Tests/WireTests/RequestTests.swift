import Testing
import Wire

/// Parses a request frame from text.
func request(_ text: String) throws(RequestError) -> Request {
  try Request(parsing: Array(text.utf8))
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
    #expect(try parsed.string("feature") == "counter")
    let event = try parsed.event()
    #expect(event.type == "increment")
    #expect(event.fields == ["by": 2])
    #expect(event.json == ["type": "increment", "by": 2])
  }

  @Test func idForms() throws {
    #expect(try request(#"{"op":"ping"}"#).id == nil)
    #expect(try request(#"{"op":"ping","id":"abc"}"#).id == .string("abc"))
    #expect(try request(#"{"op":"ping","id":-5}"#).id == .number(-5))
    #expect(try request(#"{"op":"ping","id":2.0}"#).id == .number(2))
  }

  @Test func typedFieldHelpers() throws {
    let parsed = try request(#"{"op":"x","s":"v","i":4,"b":true,"o":{"k":1},"f":1.5}"#)
    #expect(try parsed.string("s") == "v")
    #expect(try parsed.int("i") == 4)
    #expect(try parsed.bool("b") == true)
    #expect(try parsed.object("o") == ["k": 1])
    #expect(try parsed.value("f") == 1.5)
    #expect(parsed["s"] == "v")
    #expect(parsed["nope"] == nil)

    #expect(throws: WireError.missingField("feature")) { try parsed.string("feature") }
    #expect(throws: WireError(.invalidField, "field 'i' must be a string, got number")) {
      try parsed.string("i")
    }
    #expect(throws: WireError(.invalidField, "field 'f' must be an integer, got number")) {
      try parsed.int("f")
    }
    #expect(throws: WireError(.invalidField, "field 's' must be a boolean, got string")) {
      try parsed.bool("s")
    }
    #expect(throws: WireError(.invalidField, "field 'b' must be an object, got boolean")) {
      try parsed.object("b")
    }
  }

  @Test func eventErrors() throws {
    #expect(throws: WireError.missingField("event")) { try request(#"{"op":"send"}"#).event() }
    #expect(throws: WireError(.invalidField, "field 'event' must be an object, got string")) {
      try request(#"{"op":"send","event":"inc"}"#).event()
    }
    #expect(throws: WireError.missingField("event.type")) {
      try request(#"{"op":"send","event":{}}"#).event()
    }
    #expect(throws: WireError(.invalidField, "field 'event.type' must be a string, got number")) {
      try request(#"{"op":"send","event":{"type":1}}"#).event()
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
