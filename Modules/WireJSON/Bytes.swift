// Byte-level helpers shared by the parser, the writer and the framer (those Wire uses are
// `package`):
//
//     var line: [UInt8] = []
//     line.append(literal: #"{"ok":true"#)
//     line.append(.closeBrace)
//     hex(0x0A, digits: 2)  // "0A"

import SystemCalls

/// Upper-case hexadecimal, zero-padded to at least `digits`.
func hex(_ value: UInt32, digits: Int) -> String {
  let text = String(value, radix: 16, uppercase: true)
  return String(repeating: "0", count: max(0, digits - text.count)) + text
}

/// ASCII bytes by name.
extension UInt8 {
  static let tab = UInt8(ascii: "\t")
  package static let lineFeed = UInt8(ascii: "\n")
  package static let carriageReturn = UInt8(ascii: "\r")
  static let space = UInt8(ascii: " ")
  static let quote = UInt8(ascii: "\"")
  static let backslash = UInt8(ascii: "\\")
  static let slash = UInt8(ascii: "/")
  package static let comma = UInt8(ascii: ",")
  static let colon = UInt8(ascii: ":")
  static let minus = UInt8(ascii: "-")
  static let plus = UInt8(ascii: "+")
  static let dot = UInt8(ascii: ".")
  static let digit0 = UInt8(ascii: "0")
  static let digit9 = UInt8(ascii: "9")
  package static let openBrace = UInt8(ascii: "{")
  package static let closeBrace = UInt8(ascii: "}")
  static let openBracket = UInt8(ascii: "[")
  static let closeBracket = UInt8(ascii: "]")

  /// Space, tab, line feed or carriage return: what JSON allows between tokens.
  package var isJSONWhitespace: Bool {
    self == .space || self == .tab || self == .lineFeed || self == .carriageReturn
  }
}

extension [UInt8] {
  /// Appends the bytes of a compile-time string without going through `String`.
  mutating func append(literal: StaticString) {
    append(
      copying: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }

  /// Appends `bytes` in one copy into the spare capacity (``append(upTo:_:)``): about half
  /// of what `append(contentsOf:)` costs for the short runs JSON is written in.
  mutating func append(copying bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    append(upTo: bytes.count) { start in
      start.update(from: source, count: bytes.count)
      return bytes.count
    }
  }
}

extension JSON {
  /// The compact serialization as bytes, without a trailing newline.
  ///
  /// ```swift
  /// JSON(["n": 1]).serialized()  // Array(#"{"n":1}"#.utf8)
  /// ```
  public func serialized() -> [UInt8] {
    var writer = JSONWriter()
    writer.json(self)
    return writer.bytes
  }

  /// The compact serialization as text, e.g. `{"n":1}`.
  public func serializedString() -> String {
    String(decoding: serialized(), as: UTF8.self)
  }
}

extension UnsafeRawBufferPointer {
  /// Whether these bytes are `other`'s: the lengths compared first, so a name of another
  /// length costs one comparison, then as words: two 8-byte loads cover a name of 8 to 16
  /// bytes (overlapping), two 4-byte loads one of 4 to 7, and so on. For a request's feature
  /// and event type names, compared on every `send`.
  @inlinable
  package func hasSameBytes(as other: [UInt8]) -> Bool {
    guard count == other.count else { return false }
    return other.withUnsafeBytes { other in
      guard let mine = baseAddress, let theirs = other.baseAddress else { return true }
      return Self.sameBytes(mine, theirs, count: count)
    }
  }

  /// Whether `count` bytes at `a` and at `b` are the same, compared as loaded words (a
  /// constant `count` folds the choice of words away).
  @inlinable
  package static func sameBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
    func same<Word: FixedWidthInteger>(_: Word.Type, at offset: Int) -> Bool {
      a.loadUnaligned(fromByteOffset: offset, as: Word.self)
        == b.loadUnaligned(fromByteOffset: offset, as: Word.self)
    }
    switch count {
    case 0: return true
    case 1: return same(UInt8.self, at: 0)
    case 2..<4: return same(UInt16.self, at: 0) && same(UInt16.self, at: count - 2)
    case 4..<8: return same(UInt32.self, at: 0) && same(UInt32.self, at: count - 4)
    default:
      var offset = 0
      while offset + 8 < count {
        guard same(UInt64.self, at: offset) else { return false }
        offset += 8
      }
      return same(UInt64.self, at: count - 8)
    }
  }
}

/// A name of a few bytes as two words and its length, to find which of several names some
/// bytes spell (a request's feature, an event's type) in a few instructions per name, with
/// nothing retained: the words are the bytes loaded as ``UnsafeRawBufferPointer/hasSameBytes(as:)``
/// compares them (the first and the last 8, 4, 2 or 1 bytes, which overlap or repeat for a
/// short name), so a name of at most 16 bytes matches exactly when its words do; a longer one
/// matches only if its bytes do too (``spells(_:)``'s `confirm`).
@usableFromInline
package struct ShortName: Sendable {
  @usableFromInline package let count: Int
  @usableFromInline let first: UInt64
  @usableFromInline let last: UInt64

  package init(_ name: [UInt8]) {
    count = name.count
    (first, last) = name.withUnsafeBytes(Self.words)
  }

  /// Whether `bytes` are this name's bytes; `confirm` compares them in full when the name is
  /// longer than its words.
  @inlinable
  package func spells(
    _ bytes: UnsafeRawBufferPointer, confirm: () -> Bool
  ) -> Bool {
    guard bytes.count == count, Self.words(bytes) == (first, last) else { return false }
    return count <= 16 || confirm()
  }

  @inlinable
  static func words(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
    guard let base = bytes.baseAddress else { return (0, 0) }
    func word<Word: FixedWidthInteger>(_: Word.Type, at offset: Int) -> UInt64 {
      UInt64(truncatingIfNeeded: base.loadUnaligned(fromByteOffset: offset, as: Word.self))
    }
    let count = bytes.count
    switch count {
    case 0: return (0, 0)
    case 1: return (word(UInt8.self, at: 0), 0)
    case 2..<4: return (word(UInt16.self, at: 0), word(UInt16.self, at: count - 2))
    case 4..<8: return (word(UInt32.self, at: 0), word(UInt32.self, at: count - 4))
    default: return (word(UInt64.self, at: 0), word(UInt64.self, at: count - 8))
    }
  }
}

extension [UInt8] {
  /// Appends at most `maximum` bytes that `body` writes from the address it is given, straight
  /// into the array's spare capacity (no buffer in between, no `append(contentsOf:)`); `body`
  /// returns how many it wrote.
  ///
  /// ```swift
  /// bytes.append(upTo: 20) { start in writeDecimal(42, at: start) - start }  // "42"
  /// ```
  @inlinable
  package mutating func append(
    upTo maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int
  ) {
    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
      append(addingCapacity: maximum) { output in
        output.withUnsafeMutableBufferPointer { buffer, count in
          count += body(buffer.baseAddress! + count)
        }
      }
    } else {
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximum) { buffer in
        append(
          contentsOf: UnsafeBufferPointer(
            start: buffer.baseAddress!, count: body(buffer.baseAddress!)))
      }
    }
  }
}

/// Writes the decimal digits of `value` from `start` (at most 20 bytes, with a `-`), and
/// returns where they end: the number of digits is counted first, then they are written from
/// the last backwards by SystemCalls' one decimal writer.
package func writeDecimal(
  _ value: Int64, at start: UnsafeMutablePointer<UInt8>
) -> UnsafeMutablePointer<UInt8> {
  var start = start
  if value < 0 {
    start.pointee = .minus
    start += 1
  }
  return writeDecimal(value.magnitude, at: start)
}

/// ``writeDecimal(_:at:)`` for an unsigned value.
package func writeDecimal(
  _ value: UInt64, at start: UnsafeMutablePointer<UInt8>
) -> UnsafeMutablePointer<UInt8> {
  var count = 1
  var rest = value
  while rest >= 100 {
    count &+= 2
    rest /= 100
  }
  if rest >= 10 { count &+= 1 }
  let end = start + count
  _ = decimalDigits(value, before: end)
  return end
}

/// Writes `true` or `false` from `start` (at most 5 bytes) and returns where it ends.
package func writeBoolean(
  _ flag: Bool, at start: UnsafeMutablePointer<UInt8>
) -> UnsafeMutablePointer<UInt8> {
  let text: StaticString = flag ? "true" : "false"
  start.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
  return start + text.utf8CodeUnitCount
}

/// Plain string content: printable ASCII other than `"` and `\`, what a string holds when it
/// has no escapes and nothing to check byte by byte. The tokenizer's fast path
/// (`JSONCursor.scanPlainString`) and a request's usual `send` read strings with these.
extension UnsafeRawBufferPointer {
  /// The offset of the first byte at or after `start` that is not plain string content, or
  /// an offset of the last few bytes, fewer than eight, that it did not look at: it reads
  /// eight bytes a step as one word and tests all eight at once. The byte loop after it
  /// decides what that byte is.
  @inlinable @inline(__always)
  package func plainRun(from start: Int) -> Int {
    var index = start
    guard let base = baseAddress else { return index }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    while index + 8 <= count {
      let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      // A byte's high bit is set in `special` where the byte is `"` (0x22), `\` (0x5C), below
      // 0x20, or at or above 0x80: the usual test for a zero byte, (x - 1) & ~x & 0x80, on
      // word ^ the byte, and x - 0x20 for the bytes below 0x20. A borrow can flag a byte
      // above a flagged one falsely, never one below it: the lowest flag is exact.
      let quote = word ^ (ones &* 0x22)
      let backslash = word ^ (ones &* 0x5C)
      let special =
        ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
        | ((word &- ones &* 0x20) & ~word) | word
      let flags = special & highs
      if flags != 0 { return index + flags.trailingZeroBitCount / 8 }
      index += 8
    }
    return index
  }

  /// Where the closing quote is of the string text that starts at `start` when that text is
  /// plain string content, else -1 (an escape, a byte to check, or no closing quote).
  @inlinable @inline(__always)
  package func plainTextEnd(from start: Int) -> Int {
    var index = plainRun(from: start)
    while index < count {
      let byte = self[index]
      if byte == 0x22 { return index }
      guard byte >= 0x20 && byte < 0x80 && byte != 0x5C else { return -1 }
      index += 1
    }
    return -1
  }
}
