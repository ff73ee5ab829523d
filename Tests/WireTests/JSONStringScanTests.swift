import Testing
import Wire

/// The string scan reads plain content eight bytes at a time: whatever byte ends the plain run
/// (a quote, an escape, a control character, UTF-8 valid or not, the end of input) must be
/// found at every offset within and across those words, with the same result or error a byte
/// by byte scan gives.
@Suite struct JSONStringScanTests {
  /// `"` + `count` plain letters + `tail`, parsed as one document.
  static func parsed(plain count: Int, _ tail: [UInt8]) -> Result<JSON, JSONError> {
    let plain = (0..<count).map { UInt8(ascii: "a") + UInt8($0 % 26) }
    let bytes = [UInt8(ascii: "\"")] + plain + tail
    return Result { () throws(JSONError) -> JSON in try JSONParser().parse(bytes) }
  }

  static func letters(_ count: Int) -> String {
    String(decoding: (0..<count).map { UInt8(ascii: "a") + UInt8($0 % 26) }, as: UTF8.self)
  }

  @Test(arguments: 0...40)
  func everyEndOfThePlainRunIsFound(count: Int) throws {
    let letters = Self.letters(count)
    // Ends and continues as it should.
    #expect(try Self.parsed(plain: count, [0x22]).get() == .string(letters))
    #expect(try Self.parsed(plain: count, Array(#"\n""#.utf8)).get() == .string(letters + "\n"))
    #expect(try Self.parsed(plain: count, Array(#"x\"y""#.utf8)).get() == .string(letters + "x\"y"))
    #expect(
      try Self.parsed(plain: count, Array("é\u{7F}~\"".utf8)).get() == .string(letters + "é\u{7F}~")
    )
    #expect(try Self.parsed(plain: count, Array("😀 z\"".utf8)).get() == .string(letters + "😀 z"))
    // Refused where it should be, at the same offset.
    for control: UInt8 in [0x00, 0x0A, 0x1F] {
      let error = Self.parsed(plain: count, [control, 0x22]).failure
      #expect(error?.offset == count + 1)
      #expect(error?.kind == .syntax)
    }
    for invalid: [UInt8] in [[0x80], [0xC3], [0xFF, 0x22], [0xED, 0xA0, 0x80, 0x22]] {
      let error = Self.parsed(plain: count, invalid).failure
      #expect(error?.kind == .invalidUTF8)
      #expect(error?.offset == count + 1)
    }
    #expect(Self.parsed(plain: count, []).failure?.offset == count + 1)  // unterminated
  }
}

extension Result {
  fileprivate var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
