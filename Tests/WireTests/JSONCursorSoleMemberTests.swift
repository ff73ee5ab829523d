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

/// `readDocument(notingMembers:)`: the check notes, for each top-level member, a plain string
/// value's end and an object of one plain key and plain string value (the usual event), and
/// still refuses what the parser refuses, at the same offset.
@Suite struct JSONCursorNotingTests {
  /// Each member's key and what was noted of its value: `s:<text>` for a plain string,
  /// `o:<key>=<text>` for a sole plain member, `-` for anything else.
  func notes(
    _ text: String, maxDepth: Int = JSONParser.defaultMaxDepth
  ) throws(JSONError)
    -> [String]
  {
    let bytes = Array(text.utf8)
    let found = bytes.withUnsafeBytes { bytes in
      Result { () throws(JSONError) -> [String] in
        var cursor = JSONCursor(bytes, maxDepth: maxDepth)
        var notes: [String] = []
        func text(_ range: Range<Int>) -> String {
          String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        try cursor.readDocument(notingMembers: { key, value in
          var note = String(decoding: key, as: UTF8.self) + " "
          if value.plainEnd >= 0 {
            note += "s:" + text(value.start + 1..<value.plainEnd)
          } else if let sole = value.sole {
            note += "o:" + text(sole.key) + "=" + text(sole.text)
          } else {
            note += "-"
          }
          notes.append(note)
        })
        return notes
      }
    }
    return try found.get()
  }

  @Test func plainStringsAndSolePlainMembersAreNoted() throws {
    #expect(
      try notes(#"{"op":"send","event":{"type":"increment"},"n":1,"e":{}}"#)
        == ["op s:send", "event o:type=increment", "n -", "e -"])
    #expect(try notes(" {\"e\" : {\t\"k\" :\r\n \"\" } } ") == ["e o:k="])
    #expect(try notes(#"{"e":{"":"x\u007f"}}"#) == [#"e -"#])
    #expect(try notes("{\"e\":{\"\":\"x\u{7f}\"}}") == ["e o:=x\u{7f}"])
    for other in [
      #"{"e":{"k":"v","k":"v"}}"#, #"{"e":{"k":5}}"#, #"{"e":{"k":"é"}}"#, #"{"e":{"é":"v"}}"#,
      #"{"e":{"k":"\u0076"}}"#, #"{"e":{"\u006b":"v"}}"#, #"{"e":{"k":{"k":"v"}}}"#,
      #"{"e":["k","v"]}"#,
    ] {
      #expect(try notes(other) == ["e -"], "\(other)")
    }
  }

  /// An object the short scan does not take is checked in full: the same errors at the same
  /// offsets as a parse, including nesting deeper than allowed.
  @Test func whatTheScanDoesNotTakeIsCheckedInFull() throws {
    for text in [
      #"{"e":{"k":"v""#, #"{"e":{"k":"v"]}"#, #"{"e":{"k":"v",}}"#, #"{"e":{"k" "v"}}"#,
      "{\"e\":{\"k\":\"v\u{1}\"}}", #"{"e":{"k":"v"}}}"#, #"{"e":{"k":"v\"}}"#,
    ] {
      let parsed = Result { () throws(JSONError) in try JSONParser().parse(Array(text.utf8)) }
      let noted = Result { () throws(JSONError) in try notes(text) }
      guard case .failure(let expected) = parsed, case .failure(let error) = noted else {
        Issue.record("\(text) was read")
        continue
      }
      #expect(error.kind == expected.kind && error.offset == expected.offset, "\(text)")
      #expect(error.message == expected.message, "\(text)")
    }
    #expect(throws: JSONError.self) { try notes(#"{"e":{"k":"v"}}"#, maxDepth: 1) }
    #expect(try notes(#"{"e":{"k":"v"}}"#, maxDepth: 2) == ["e o:k=v"])
  }
}
