import Testing
import Wire

/// `soleStringMember`: the short scan that reads the usual event (`{"type":"increment"}`);
/// anything else is nil and goes the members' way.
@Suite struct JSONCursorSoleMemberTests {
  func sole(_ text: String) -> String? {
    Array(text.utf8).withUnsafeBytes { bytes in
      JSONCursor(bytes).soleStringMember("type").map { String(decoding: $0, as: UTF8.self) }
    }
  }

  @Test func theTypeAloneWrittenPlainly() {
    #expect(sole(#"{"type":"increment"}"#) == "increment")
    #expect(sole(" {\t\"type\" :\r\n \"reset\" } ") == "reset")
    #expect(sole(#"{"type":""}"#) == "")
    #expect(sole(#"{"type":"é"}"#) == "é")
  }

  @Test func anythingElseIsNil() {
    for text in [
      #"{"type":"set","value":5}"#, #"{"value":5,"type":"set"}"#, #"{"type":"in\u0063rement"}"#,
      #"{"ty\u0070e":"increment"}"#, #"{"typ":"increment"}"#, #"{"types":"increment"}"#,
      #"{"type":5}"#, #"{"type":null}"#, #"{}"#, #"["type"]"#, #""type""#, "",
      // Not checked: read as far as the bytes go, never beyond.
      #"{"type":"increment"#, #"{"type":"#, #"{"type"#, "{",
    ] {
      #expect(sole(text) == nil, "\(text)")
    }
  }
}
