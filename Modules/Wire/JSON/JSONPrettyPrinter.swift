/// Writes JSON over several lines for people: two-space indentation, one
/// array element or object member per line, `"key": value`, keys in insertion
/// order, and `[]` / `{}` for empty containers. Scalars are written exactly as
/// `JSONSerializer` writes them.
///
/// ```swift
/// print(JSON(["count": 3, "tags": ["a"], "extra": [:]]).prettyPrinted())
/// // {
/// //   "count": 3,
/// //   "tags": [
/// //     "a"
/// //   ],
/// //   "extra": {}
/// // }
/// ```
public enum JSONPrettyPrinter {
  /// Appends the pretty serialization of `value`, indented as if it started at
  /// nesting `level`, to `buffer` (no trailing newline).
  public static func write(_ value: JSON, to buffer: inout [UInt8], level: Int = 0) {
    switch value {
    case .array(let elements) where !elements.isEmpty:
      buffer.append(.openBracket)
      for (offset, element) in elements.enumerated() {
        if offset > 0 { buffer.append(.comma) }
        newline(level + 1, &buffer)
        write(element, to: &buffer, level: level + 1)
      }
      newline(level, &buffer)
      buffer.append(.closeBracket)
    case .object(let object) where !object.isEmpty:
      buffer.append(.openBrace)
      for (offset, member) in object.enumerated() {
        if offset > 0 { buffer.append(.comma) }
        newline(level + 1, &buffer)
        JSONSerializer.writeString(member.key, to: &buffer)
        buffer.append(.colon)
        buffer.append(.space)
        write(member.value, to: &buffer, level: level + 1)
      }
      newline(level, &buffer)
      buffer.append(.closeBrace)
    default:
      JSONSerializer.write(value, to: &buffer)
    }
  }

  private static func newline(_ level: Int, _ buffer: inout [UInt8]) {
    buffer.append(.lineFeed)
    buffer.append(contentsOf: repeatElement(.space, count: level * 2))
  }
}

extension JSON {
  /// The indented, multi-line serialization (no trailing newline), for CLI output.
  public func prettyPrinted() -> String {
    var buffer: [UInt8] = []
    JSONPrettyPrinter.write(self, to: &buffer)
    return String(decoding: buffer, as: UTF8.self)
  }
}
