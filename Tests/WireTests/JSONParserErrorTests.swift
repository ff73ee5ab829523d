import Testing
import Wire

/// The error for parsing `bytes`, or nil if they parse.
func parseError(_ bytes: [UInt8]) -> JSONError? {
  do {
    _ = try JSONParser().parse(bytes)
    return nil
  } catch {
    return error
  }
}

func parseError(_ text: String) -> JSONError? { parseError(Array(text.utf8)) }

@Suite struct JSONParserErrorTests {
  @Test(arguments: [
    // (input, byte offset, message without position)
    ("", 0, "expected a value, found end of input"),
    ("   ", 3, "expected a value, found end of input"),
    (#"{"a" 1}"#, 5, "expected ':' after object key, found '1'"),
    (#"{"id":1,"op":"get" "x"}"#, 19, "expected ',' or '}' after object member, found '\"'"),
    (#"{"a":1,}"#, 7, "expected string key after ',', found '}'"),
    ("{a:1}", 1, "expected string key or '}', found 'a'"),
    ("[1,]", 3, "expected a value, found ']'"),
    ("[1 2]", 3, "expected ',' or ']' after array element, found '2'"),
    ("[1", 2, "expected ',' or ']' after array element, found end of input"),
    ("{\"a\":1", 6, "expected ',' or '}' after object member, found end of input"),
    ("tru", 3, "expected 'true', found end of input"),
    ("nul!", 3, "expected 'null', found '!'"),
    ("True", 0, "expected a value, found 'T'"),
    ("1 2", 2, "expected end of input after the JSON value, found '2'"),
    ("{} x", 3, "expected end of input after the JSON value, found 'x'"),
    ("\"abc", 4, "unterminated string starting at byte 0"),
    ("\"a\nb\"", 2, "unescaped control character 0x0A in string"),
    (#""\x""#, 1, #"invalid escape sequence '\x' in string"#),
    (#""\u12G4""#, 5, #"expected 4 hex digits after \u, found 'G'"#),
    (#""\u12"#, 5, #"expected 4 hex digits after \u, found end of input"#),
    (#""\ud83d""#, 1, #"unpaired high surrogate \uD83D in string"#),
    (#""\ud83dx""#, 1, #"unpaired high surrogate \uD83D in string"#),
    (#""\ude00""#, 1, #"unpaired low surrogate \uDE00 in string"#),
    (#""\ud83d\u0041""#, 7, #"high surrogate \uD83D followed by \u0041, not a low surrogate"#),
    ("01", 0, "leading zeros are not allowed in numbers"),
    ("-", 1, "expected a digit after '-', found end of input"),
    ("-a", 1, "expected a digit after '-', found 'a'"),
    ("+1", 0, "expected a value, found '+'"),
    (".5", 0, "expected a value, found '.'"),
    ("1.", 2, "expected a digit after the decimal point, found end of input"),
    ("1.e5", 2, "expected a digit after the decimal point, found 'e'"),
    ("1e", 2, "expected a digit in the exponent, found end of input"),
    ("1e+", 3, "expected a digit in the exponent, found end of input"),
    ("NaN", 0, "expected a value, found 'N'"),
    ("1e400", 0, "number 1e400 is out of range"),
    ("-1e400", 0, "number -1e400 is out of range"),
    ("[\u{1}]", 1, "expected a value, found control character 0x01"),
    ("[é]", 1, "expected a value, found 'é' (U+00E9)"),
    ("\u{FEFF}{}", 0, "expected a value, found '\u{FEFF}' (U+FEFF)"),
  ])
  func syntaxErrors(input: String, offset: Int, reason: String) throws {
    let error = try #require(parseError(input))
    #expect(error.kind == .syntax)
    #expect(error.reason == reason)
    #expect(error.offset == offset)
    #expect(error.message == "\(reason) at byte \(offset)")
  }

  @Test(
    arguments: [
      // (bytes, offset of the ill-formed sequence)
      ([0x22, 0xFF, 0x22], 1),  // never valid
      ([0x22, 0x61, 0x80, 0x22], 2),  // stray continuation byte
      ([0x22, 0xC0, 0x80, 0x22], 1),  // overlong NUL
      ([0x22, 0xE0, 0x80, 0x80, 0x22], 1),  // overlong 3-byte form
      ([0x22, 0xED, 0xA0, 0x80, 0x22], 1),  // encoded surrogate U+D800
      ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1),  // above U+10FFFF
      ([0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], 1),  // invalid lead byte
      ([0x22, 0xE4, 0xB8, 0x22], 1),  // truncated by the closing quote
      ([0x22, 0xE4, 0xB8], 1),  // truncated by the end of input
      ([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x20, 0xFF, 0x7D], 6),  // outside a string
      ([0x5B, 0x31, 0x2C, 0xC3], 3),  // truncated outside a string
      ([0x22, 0x5C, 0xFF, 0x22], 2),  // after a backslash
    ] as [([UInt8], Int)])
  func invalidUTF8IsItsOwnKind(bytes: [UInt8], offset: Int) throws {
    let error = try #require(parseError(bytes))
    #expect(error.kind == .invalidUTF8)
    #expect(error.offset == offset)
    #expect(error.message == "invalid UTF-8 at byte \(offset)")
  }

  @Test func validMultibyteSequencesAtTheEdges() throws {
    // U+0080, U+07FF, U+0800, U+D7FF, U+E000, U+FFFF, U+10000, U+10FFFF
    let text = "\"\u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFF}\u{10000}\u{10FFFF}\""
    #expect(try parse(text) == .string(String(text.dropFirst().dropLast())))
  }
}
