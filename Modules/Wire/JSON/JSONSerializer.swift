/// Writes JSON as compact, single-line UTF-8.
///
/// The output never contains a raw line feed (or any control character): they
/// are escaped inside strings, so one value is always exactly one frame line.
/// Non-ASCII text is written as UTF-8, unescaped. Doubles use Swift's shortest
/// round-tripping form (`0.1`, `5.0`, `1e-07`); NaN and infinities, which JSON
/// cannot express, are written as `null`.
///
/// ```swift
/// var line: [UInt8] = []
/// JSONSerializer.write(["a": [1, 2.5, "x\n"]], to: &line)
/// // line == Array(#"{"a":[1,2.5,"x\n"]}"#.utf8)
/// ```
public enum JSONSerializer {
  /// Appends the compact serialization of `value` to `buffer`.
  public static func write(_ value: JSON, to buffer: inout [UInt8]) {
    switch value {
    case .null: buffer.append(literal: "null")
    case .bool(let flag): buffer.append(literal: flag ? "true" : "false")
    case .integer(let integer): writeInteger(integer, to: &buffer)
    case .number(let number): writeNumber(number, to: &buffer)
    case .string(let string): writeString(string, to: &buffer)
    case .array(let elements):
      buffer.append(.openBracket)
      for (offset, element) in elements.enumerated() {
        if offset > 0 { buffer.append(.comma) }
        write(element, to: &buffer)
      }
      buffer.append(.closeBracket)
    case .object(let object):
      buffer.append(.openBrace)
      for (offset, member) in object.enumerated() {
        if offset > 0 { buffer.append(.comma) }
        writeString(member.key, to: &buffer)
        buffer.append(.colon)
        write(member.value, to: &buffer)
      }
      buffer.append(.closeBrace)
    }
  }

  /// Appends `string` as a quoted, escaped JSON string.
  public static func writeString(_ string: String, to buffer: inout [UInt8]) {
    buffer.append(.quote)
    let done: Void? = string.utf8.withContiguousStorageIfAvailable { utf8 in
      writeEscaped(utf8, to: &buffer)
    }
    if done == nil {  // not native UTF-8 storage: make it so
      var native = string
      native.withUTF8 { writeEscaped($0, to: &buffer) }
    }
    buffer.append(.quote)
  }

  /// Appends string content, escaping what JSON requires.
  private static func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) {
    var runStart = 0
    for index in utf8.indices {
      let byte = utf8[index]
      guard byte < 0x20 || byte == .quote || byte == .backslash else { continue }
      buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
      runStart = index + 1
      buffer.append(.backslash)
      switch byte {
      case .quote, .backslash: buffer.append(byte)
      case .lineFeed: buffer.append(UInt8(ascii: "n"))
      case .carriageReturn: buffer.append(UInt8(ascii: "r"))
      case .tab: buffer.append(UInt8(ascii: "t"))
      case 0x08: buffer.append(UInt8(ascii: "b"))
      case 0x0C: buffer.append(UInt8(ascii: "f"))
      default:
        buffer.append(literal: "u00")
        buffer.append(hexDigits[Int(byte >> 4)])
        buffer.append(hexDigits[Int(byte & 0xF)])
      }
    }
    buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
  }

  /// Appends the decimal digits of `value`.
  public static func writeInteger(_ value: Int64, to buffer: inout [UInt8]) {
    if value < 0 { buffer.append(.minus) }
    var magnitude = value.magnitude
    if magnitude < 10 {
      buffer.append(.digit0 + UInt8(magnitude))
      return
    }
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var start = 20
      while magnitude > 0 {
        start -= 1
        digits[start] = .digit0 + UInt8(magnitude % 10)
        magnitude /= 10
      }
      buffer.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
    }
  }

  /// Appends `value` in shortest round-tripping form, or `null` if not finite.
  public static func writeNumber(_ value: Double, to buffer: inout [UInt8]) {
    guard value.isFinite else {
      buffer.append(literal: "null")
      return
    }
    buffer.append(contentsOf: value.description.utf8)
  }

  private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
