/// String literals: escapes, surrogate pairs and UTF-8 validation.
extension JSONCursor {
  /// A string token: where its quotes are, and whether it holds escapes.
  struct RawString {
    /// The offset of the opening quote.
    let quote: Int
    /// The offset of the closing quote.
    let close: Int
    let escaped: Bool
  }

  /// Parses the string starting at the opening quote at `position` and leaves
  /// `position` just past its closing quote.
  @inline(never)
  mutating func parseString() throws(JSONError) -> String {
    var decoded: [UInt8] = []
    let raw = try scanString(decoding: &decoded)
    guard raw.escaped else { return String(decoding: content(raw), as: UTF8.self) }
    return String(decoding: decoded, as: UTF8.self)
  }

  /// The bytes between the quotes of `raw`, escapes as written.
  func content(_ raw: RawString) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(rebasing: bytes[(raw.quote + 1)..<raw.close])
  }

  /// The text of a string token read before (decoding its escapes again if it has any).
  func string(_ raw: RawString) -> String {
    guard raw.escaped else { return String(decoding: content(raw), as: UTF8.self) }
    var again = self
    again.position = raw.quote
    return (try? again.parseString()) ?? ""
  }

  /// Whether the string token `raw` spells `name`.
  func matches(_ raw: RawString, _ name: String) -> Bool {
    guard !raw.escaped else { return string(raw) == name }
    let start = raw.quote + 1
    let length = raw.close - start
    guard name.utf8.count == length else { return false }
    var name = name
    return name.withUTF8 { name in
      for index in 0..<length where name[index] != bytes[start + index] { return false }
      return true
    }
  }

  /// Checks the string starting at the opening quote at `position` and leaves `position`
  /// just past its closing quote. When it holds escapes, its decoded bytes are in `decoded`
  /// (which it empties first), else `decoded` is left alone: a string without escapes costs
  /// no allocation.
  @inline(never)
  mutating func scanString(decoding decoded: inout [UInt8]) throws(JSONError) -> RawString {
    if let plain = scanPlainString() { return plain }
    let opening = position
    let bytes = self.bytes
    position += 1
    var segmentStart = position
    var escaped = false
    while position < end {
      let byte = bytes[position]
      if byte == .quote {
        let raw = RawString(quote: opening, close: position, escaped: escaped)
        if escaped {
          decoded.append(
            contentsOf: UnsafeRawBufferPointer(rebasing: bytes[segmentStart..<position]))
        }
        position += 1
        return raw
      } else if byte == .backslash {
        if !escaped {
          escaped = true
          decoded.removeAll(keepingCapacity: true)
        }
        decoded.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[segmentStart..<position]))
        try parseEscape(into: &decoded)
        segmentStart = position
      } else if byte < 0x20 {
        throw JSONError(
          .syntax, "unescaped control character 0x\(hex(UInt32(byte), digits: 2)) in string",
          at: position)
      } else if byte < 0x80 {
        position += 1
      } else {
        guard let (_, length) = decodeScalar(at: position) else {
          throw JSONError(.invalidUTF8, "invalid UTF-8", at: position)
        }
        position += length
      }
    }
    throw JSONError(.syntax, "unterminated string starting at byte \(opening)", at: end)
  }

  /// Moves past the string whose opening quote is at `position` when it is the usual string,
  /// printable ASCII without escapes, and returns it; else returns nil and leaves `position`
  /// alone, for ``scanString(decoding:)`` to read it again with every check. Inlined where
  /// the tokenizer meets a key or a string value: the call and the decoding buffer
  /// `scanString` needs cost more than reading a short key.
  @inline(__always)
  mutating func scanPlainString() -> RawString? {
    let opening = position
    // Read with locals only, eight bytes at a time while they are all plain
    // (``plainRun(at:)``), then byte by byte.
    let bytes = self.bytes
    var index = plainRun(at: opening + 1)
    while index < end {
      let byte = bytes[index]
      if byte == .quote {
        position = index + 1
        return RawString(quote: opening, close: index, escaped: false)
      }
      guard byte >= 0x20 && byte < 0x80 && byte != .backslash else { return nil }
      index += 1
    }
    return nil
  }

  /// The offset of the first byte at or after `start` that is not plain string content, or
  /// of the last few bytes it did not look at (``Swift/UnsafeRawBufferPointer/plainRun(from:)``).
  @inline(__always)
  func plainRun(at start: Int) -> Int { bytes.plainRun(from: start) }

  /// Decodes the escape at `position` (a backslash) into `decoded`.
  private mutating func parseEscape(into decoded: inout [UInt8]) throws(JSONError) {
    let start = position
    position += 1
    guard position < end else {
      throw JSONError(.syntax, "unterminated escape sequence in string", at: start)
    }
    let replacement: UInt8
    switch bytes[position] {
    case .quote: replacement = .quote
    case .backslash: replacement = .backslash
    case .slash: replacement = .slash
    case UInt8(ascii: "b"): replacement = 0x08
    case UInt8(ascii: "f"): replacement = 0x0C
    case UInt8(ascii: "n"): replacement = .lineFeed
    case UInt8(ascii: "r"): replacement = .carriageReturn
    case UInt8(ascii: "t"): replacement = .tab
    case UInt8(ascii: "u"):
      position += 1
      try appendUnicodeEscape(startingAt: start, to: &decoded)
      return
    default:
      let shown: String
      if bytes[position] >= 0x20 && bytes[position] < 0x7F {
        shown = "'\\\(Character(Unicode.Scalar(bytes[position])))'"
      } else {
        guard bytes[position] < 0x80 || decodeScalar(at: position) != nil else {
          throw JSONError(.invalidUTF8, "invalid UTF-8", at: position)
        }
        shown = "after '\\'"
      }
      throw JSONError(.syntax, "invalid escape sequence \(shown) in string", at: start)
    }
    decoded.append(replacement)
    position += 1
  }

  /// Decodes `XXXX` (and a following `\uXXXX` low surrogate if needed) after
  /// the `\u` that began at `start`.
  private mutating func appendUnicodeEscape(
    startingAt start: Int, to decoded: inout [UInt8]
  ) throws(JSONError) {
    let unit = try readHex4()
    var value = UInt32(unit)
    if (0xDC00...0xDFFF).contains(unit) {
      throw JSONError(
        .syntax, "unpaired low surrogate \\u\(hex(value, digits: 4)) in string", at: start)
    }
    if (0xD800...0xDBFF).contains(unit) {
      guard position + 1 < end, bytes[position] == .backslash,
        bytes[position + 1] == UInt8(ascii: "u")
      else {
        throw JSONError(
          .syntax, "unpaired high surrogate \\u\(hex(value, digits: 4)) in string", at: start)
      }
      let lowStart = position
      position += 2
      let low = try readHex4()
      guard (0xDC00...0xDFFF).contains(low) else {
        throw JSONError(
          .syntax,
          "high surrogate \\u\(hex(value, digits: 4)) followed by \\u\(hex(UInt32(low), digits: 4)),"
            + " not a low surrogate", at: lowStart)
      }
      value = 0x10000 + ((value - 0xD800) << 10) + (UInt32(low) - 0xDC00)
    }
    // Valid: surrogates were excluded above and the pair math stays <= 0x10FFFF.
    decoded.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(value)!)!)
  }

  private mutating func readHex4() throws(JSONError) -> UInt16 {
    var value: UInt16 = 0
    for _ in 0..<4 {
      guard position < end else {
        throw JSONError(.syntax, "expected 4 hex digits after \\u, found end of input", at: end)
      }
      let byte = bytes[position]
      let digit: UInt8
      switch byte {
      case UInt8.digit0...UInt8.digit9: digit = byte - .digit0
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw unexpected(expected: "4 hex digits after \\u")
      }
      value = value << 4 | UInt16(digit)
      position += 1
    }
    return value
  }

  /// Decodes the well-formed UTF-8 sequence at `offset` (RFC 3629: no overlong
  /// forms, no surrogates, nothing above U+10FFFF). Nil if ill-formed or cut short.
  func decodeScalar(at offset: Int) -> (Unicode.Scalar, length: Int)? {
    let lead = bytes[offset]
    var length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    var value: UInt32
    switch lead {
    case 0x00...0x7F: return (Unicode.Scalar(lead), 1)
    case 0xC2...0xDF: (length, value) = (2, UInt32(lead & 0x1F))
    case 0xE0: (length, value, low) = (3, UInt32(lead & 0x0F), 0xA0)
    case 0xED: (length, value, high) = (3, UInt32(lead & 0x0F), 0x9F)
    case 0xE1...0xEF: (length, value) = (3, UInt32(lead & 0x0F))
    case 0xF0: (length, value, low) = (4, UInt32(lead & 0x07), 0x90)
    case 0xF4: (length, value, high) = (4, UInt32(lead & 0x07), 0x8F)
    case 0xF1...0xF3: (length, value) = (4, UInt32(lead & 0x07))
    default: return nil
    }
    guard offset + length <= end else { return nil }
    for index in 1..<length {
      let byte = bytes[offset + index]
      let (min, max) = index == 1 ? (low, high) : (0x80, 0xBF)
      guard byte >= min && byte <= max else { return nil }
      value = value << 6 | UInt32(byte & 0x3F)
    }
    guard let scalar = Unicode.Scalar(value) else { return nil }
    return (scalar, length)
  }
}
