import Testing
import Wire

/// Parses UTF-8 text.
func parse(_ text: String) throws(JSONError) -> JSON {
  try JSONParser().parse(Array(text.utf8))
}

@Suite struct JSONParserTests {
  @Test func scalars() throws {
    #expect(try parse("null") == .null)
    #expect(try parse("true") == .bool(true))
    #expect(try parse("false") == .bool(false))
    #expect(try parse("0") == .integer(0))
    #expect(try parse("-17") == .integer(-17))
    #expect(try parse("\"hi\"") == .string("hi"))
    #expect(try parse(" \t\r\n 42 \n") == .integer(42))
  }

  @Test func containersKeepOrder() throws {
    let json = try parse(#"{"z": 1, "a": [true, null, {}], "m": {"k": []}}"#)
    #expect(json.objectValue?.keys == ["z", "a", "m"])
    #expect(json["a"] == [true, nil, [:]])
    #expect(json["m"]?["k"] == [])
    #expect(try parse("[]") == [])
    #expect(try parse("[ 1 , 2 ]") == [1, 2])
  }

  @Test func duplicateKeyKeepsFirstPositionAndLastValue() throws {
    let json = try parse(#"{"a": 1, "b": 2, "a": 3}"#)
    #expect(json.objectValue?.keys == ["a", "b"])
    #expect(json["a"] == 3)
  }

  @Test func largeObjectsKeepOrderAndDeduplicate() throws {
    let members = (0..<40).map { #""k\#($0)":\#($0)"# } + [#""k3":"last""#, #""k39":null"#]
    let json = try parse("{" + members.joined(separator: ",") + "}")
    let object = try #require(json.objectValue)
    #expect(object.count == 40)
    #expect(object.keys == (0..<40).map { "k\($0)" })
    #expect(object["k3"] == "last")
    #expect(object["k39"] == JSON.null)
    #expect(object["k38"] == 38)
  }

  @Test func integersStayExact() throws {
    #expect(try parse("9223372036854775807") == .integer(.max))
    #expect(try parse("-9223372036854775808") == .integer(.min))
    #expect(try parse("9007199254740993") == .integer(9_007_199_254_740_993))  // not a Double
  }

  @Test func integersBeyondInt64BecomeDoubles() throws {
    #expect(try parse("9223372036854775808") == .number(9_223_372_036_854_775_808.0))
    #expect(try parse("-9223372036854775809") == .number(-9_223_372_036_854_775_809.0))
    #expect(try parse("123456789012345678901234567890") == .number(1.2345678901234568e29))
  }

  @Test func negativeZeroKeepsItsSign() throws {
    let zero = try parse("-0")
    #expect(zero == .number(0))
    #expect(zero.doubleValue?.sign == .minus)
    #expect(try parse("-0.0").doubleValue?.sign == .minus)
    #expect(try parse("0") == .integer(0))
  }

  @Test(arguments: [
    ("1.5", 1.5), ("-0.25", -0.25), ("1e2", 100.0), ("1E2", 100.0), ("1e+2", 100.0),
    ("1e-2", 0.01), ("-1.5e-3", -0.0015), ("2.5E+10", 2.5e10), ("0.1", 0.1),
    ("1.0", 1.0), ("0e0", 0.0), ("123456.789e-3", 123.456789),
    ("1.7976931348623157e308", 1.7976931348623157e308), ("5e-324", .leastNonzeroMagnitude),
    ("1e-400", 0.0), ("0.30000000000000004", 0.30000000000000004),
    ("3.141592653589793238462643383279", 3.141592653589793),
    ("1e22", 1e22), ("1e23", 1e23), ("9007199254740993.0", 9007199254740992.0),
  ])
  func numbersWithFractionOrExponentAreDoubles(text: String, value: Double) throws {
    #expect(try parse(text) == .number(value))
  }

  @Test func escapes() throws {
    #expect(try parse(#""a\"b\\c\/d\be\ff\ng\rh\ti""#) == "a\"b\\c/d\u{08}e\u{0C}f\ng\rh\ti")
    #expect(try parse(#""\u0041\u00e9\u00E9\u4e2d\u0000""#) == "Aéé中\u{0}")
  }

  @Test func surrogatePairs() throws {
    #expect(try parse(#""\ud83d\ude00""#) == "😀")
    #expect(try parse(#""x\uD834\uDD1Ey""#) == "x𝄞y")
  }

  @Test func rawUTF8() throws {
    #expect(try parse("\"héllo 中文 😀\"") == "héllo 中文 😀")
    #expect(try parse("{\"ключ\": \"значение\"}")["ключ"] == "значение")
  }

  @Test func depthLimit() throws {
    let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
    #expect(throws: Never.self) { try parse(ok) }
    let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
    let error = #expect(throws: JSONError.self) { try parse(deep) }
    #expect(error?.kind == .nestingTooDeep)
    #expect(error?.offset == 512)
    #expect(error?.message == "nesting deeper than 512 levels at byte 512")

    let objects = String(repeating: #"{"a":"#, count: 10) + "1" + String(repeating: "}", count: 10)
    #expect(throws: JSONError.self) { try JSONParser(maxDepth: 9).parse(objects) }
    #expect(throws: Never.self) { try JSONParser(maxDepth: 10).parse(objects) }
  }

  @Test func hostileNestingDoesNotCrash() {
    let bomb = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
    let error = #expect(throws: JSONError.self) { try JSONParser().parse(bomb) }
    #expect(error?.kind == .nestingTooDeep)
  }

  @Test func inputForms() throws {
    let text = #"{"a":[1,"x"]}"#
    let expected: JSON = ["a": [1, "x"]]
    #expect(try JSON(parsing: text) == expected)
    #expect(try JSON(parsing: Array(text.utf8)) == expected)
    #expect(try JSON(parsing: text.utf8) == expected)  // a non-Array collection
    #expect(try JSON(parsing: Array(text.utf8)[...]) == expected)  // a slice
    let viaPointer = try Array(text.utf8).withUnsafeBytes { try JSONParser().parse($0) }
    #expect(viaPointer == expected)
  }
}
