import Wire

/// Readable renderings of protocol values, for a terminal.
///
/// ```swift
/// HumanFormat.stateLines(["count": 1, "step": 2])   // ["count: 1", "step: 2"]
/// HumanFormat.inline(["count": 1, "step": 2])       // "count: 1, step: 2"
/// ```
public enum HumanFormat {
  /// Containers longer than this are pretty-printed over several lines.
  static let compactWidth = 60

  /// A state over lines: `key: value` for each member of an object, or the value itself.
  public static func stateLines(_ state: JSON) -> [String] {
    guard case .object(let object) = state, !object.isEmpty else { return [value(state)] }
    var lines: [String] = []
    for (key, member) in object {
      let text = value(member)
      if text.contains("\n") {
        let indented = text.split(separator: "\n", omittingEmptySubsequences: false)
          .map { "  " + $0 }
        lines.append("\(key):")
        lines.append(contentsOf: indented)
      } else {
        lines.append("\(key): \(text)")
      }
    }
    return lines
  }

  /// A state on one line: `key: value, key: value` for an object, compact JSON otherwise.
  public static func inline(_ state: JSON) -> String {
    guard case .object(let object) = state, !object.isEmpty else { return scalarOrCompact(state) }
    return object.map { "\($0.key): \(scalarOrCompact($0.value))" }.joined(separator: ", ")
  }

  /// A value for a person: text without quotes (unless that would hide something),
  /// short containers as compact JSON, long ones pretty-printed.
  public static func value(_ value: JSON) -> String {
    switch value {
    case .array, .object:
      let compact = value.serializedString()
      return compact.count <= compactWidth ? compact : value.prettyPrinted()
    default:
      return scalarOrCompact(value)
    }
  }

  static func scalarOrCompact(_ value: JSON) -> String {
    guard case .string(let text) = value else { return value.serializedString() }
    return needsQuotes(text) ? value.serializedString() : text
  }

  /// Empty text, surrounding spaces, or control characters are shown as JSON strings.
  static func needsQuotes(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else {
      return true
    }
    if first.properties.isWhitespace || last.properties.isWhitespace { return true }
    return text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
  }

  /// Rows padded into aligned columns (the last column is not padded).
  public static func table(_ rows: [[String]], indent: String = "") -> [String] {
    let columns = rows.map(\.count).max() ?? 0
    var widths = Array(repeating: 0, count: columns)
    for row in rows {
      for (index, cell) in row.enumerated() where index < columns - 1 {
        widths[index] = max(widths[index], cell.count)
      }
    }
    return rows.map { row in
      var line = indent
      for (index, cell) in row.enumerated() {
        if index == row.count - 1 {
          line += cell
        } else {
          line += cell + String(repeating: " ", count: widths[index] - cell.count + 2)
        }
      }
      while line.last == " " { line.removeLast() }
      return line
    }
  }
}
