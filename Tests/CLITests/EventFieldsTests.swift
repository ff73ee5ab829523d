import StatectlCore
import Testing
import Wire

@Suite struct EventFieldsTests {
  func field(_ argument: String) throws -> (String, JSON) {
    let (name, value) = try EventFields.field(argument)
    return (name, value)
  }

  func failure(_ argument: String) -> String? {
    do {
      _ = try EventFields.field(argument)
      return nil
    } catch {
      #expect(error.command == .send)
      return error.message
    }
  }

  @Test func equalsSendsText() throws {
    #expect(try field("name=Ada") == ("name", "Ada"))
    #expect(try field("n=42") == ("n", "42"))  // text, not a number
    #expect(try field("empty=") == ("empty", ""))
    #expect(try field("expr=a=b") == ("expr", "a=b"))
    #expect(try field("url=http://x/?a:=1") == ("url", "http://x/?a:=1"))
    #expect(try field("text=héllo wörld") == ("text", "héllo wörld"))
  }

  @Test func colonEqualsSendsJSON() throws {
    #expect(try field("n:=42") == ("n", 42))
    #expect(try field("x:=-1.5") == ("x", -1.5))
    #expect(try field("on:=true") == ("on", true))
    #expect(try field("off:=false") == ("off", false))
    #expect(try field("none:=null") == ("none", nil))
    #expect(try field("tags:=[\"a\",\"b\"]") == ("tags", ["a", "b"]))
    #expect(try field("o:={\"k\": [1, {}]}") == ("o", ["k": [1, [:]]]))
    #expect(try field("s:=\"quoted\"") == ("s", "quoted"))
    #expect(try field("eq:=\"a=b\"") == ("eq", "a=b"))
  }

  @Test func malformedArguments() {
    #expect(failure("novalue") == "expected field=text or field:=json, got 'novalue'")
    #expect(failure("=x") == "missing field name in '=x'")
    #expect(failure(":=1") == "missing field name in ':=1'")
    #expect(failure("type=x")?.hasPrefix("'type' is the event's name") == true)
    #expect(failure("n:=")?.hasPrefix("invalid JSON in 'n:='") == true)
    #expect(failure("n:=[1,")?.hasPrefix("invalid JSON in 'n:=[1,'") == true)
    #expect(failure("n:=1 2")?.hasPrefix("invalid JSON in 'n:=1 2'") == true)
    // A bare word is not JSON: suggest the text form.
    #expect(failure("name:=Ada")?.hasSuffix("(for text use name=Ada)") == true)
    #expect(failure("n:=[1,")?.contains("for text use") == false)
  }

  @Test func duplicatesAreRefused() {
    #expect(throws: CommandLineError("field 'a' is given twice", command: .send)) {
      try EventFields.parse(["a=1", "a:=2"])
    }
  }

  @Test func orderIsKept() throws {
    let fields = try EventFields.parse(["z=1", "a:=2", "m=3"])
    #expect(fields.keys == ["z", "a", "m"])
  }
}
