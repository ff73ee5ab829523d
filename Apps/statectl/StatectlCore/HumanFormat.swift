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

  /// Rows padded into aligned columns. A column with a limit in `maxWidths`, and the
  /// last column when `width` (the line width) is known, wrap their text at spaces.
  public static func table(
    _ rows: [[String]], indent: String = "", width: Int? = nil, maxWidths: [Int?] = []
  ) -> [String] {
    let columns = rows.map(\.count).max() ?? 0
    guard columns > 0 else { return [] }
    var widths = Array(repeating: 0, count: columns)
    for row in rows {
      for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
    }
    for (index, limit) in maxWidths.enumerated() where index < columns {
      if let limit { widths[index] = min(widths[index], limit) }
    }
    if let width {
      let used = indent.count + widths.dropLast().reduce(0) { $0 + $1 + 2 }
      widths[columns - 1] = min(widths[columns - 1], max(20, width - used))
    }
    var lines: [String] = []
    for row in rows {
      let cells = row.enumerated().map { wrap($0.element, width: widths[$0.offset]) }
      let height = cells.map(\.count).max() ?? 1
      for lineIndex in 0..<height {
        var line = indent
        for (index, cell) in cells.enumerated() {
          let text = lineIndex < cell.count ? cell[lineIndex] : ""
          line += text
          if index < cells.count - 1 {
            line += String(repeating: " ", count: widths[index] - text.count + 2)
          }
        }
        while line.last == " " { line.removeLast() }
        lines.append(line)
      }
    }
    return lines
  }

  /// `text` in lines of at most `width` characters, broken at spaces (a longer word
  /// keeps a line of its own).
  public static func wrap(_ text: String, width: Int) -> [String] {
    guard width > 0, text.count > width else { return [text] }
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if line.isEmpty {
        line = String(word)
      } else if line.count + 1 + word.count <= width {
        line += " " + word
      } else {
        lines.append(line)
        line = String(word)
      }
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    return lines
  }
}
