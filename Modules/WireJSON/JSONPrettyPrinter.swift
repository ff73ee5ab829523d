/// Writes JSON over several lines for people: two-space indentation, one
/// array element or object member per line, `"key": value`, keys in insertion
/// order, and `[]` / `{}` for empty containers. Scalars are written exactly as
/// ``JSONWriter`` writes them.
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
    JSONWriter.appending(to: &buffer) { writer in write(value, &writer, level: level) }
  }

  private static func write(_ value: JSON, _ writer: inout JSONWriter, level: Int) {
    switch value {
    case .array(let elements) where !elements.isEmpty:
      writer.byte(.openBracket)
      for (offset, element) in elements.enumerated() {
        if offset > 0 { writer.byte(.comma) }
        newline(level + 1, &writer)
        write(element, &writer, level: level + 1)
      }
      newline(level, &writer)
      writer.byte(.closeBracket)
    case .object(let object) where !object.isEmpty:
      writer.byte(.openBrace)
      for (offset, member) in object.enumerated() {
        if offset > 0 { writer.byte(.comma) }
        newline(level + 1, &writer)
        writer.key(member.key)
        writer.byte(.space)
        write(member.value, &writer, level: level + 1)
      }
      newline(level, &writer)
      writer.byte(.closeBrace)
    default:
      writer.json(value)
    }
  }

  private static func newline(_ level: Int, _ writer: inout JSONWriter) {
    writer.byte(.lineFeed)
    writer.bytes.append(contentsOf: repeatElement(.space, count: level * 2))
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
