/// Draws the prompt and the line on one terminal row, as linenoise does: the row is rewritten
/// whole after each key, and a line wider than the terminal scrolls sideways to keep the cursor
/// in view. Each character is taken to be one column wide.
public enum LineDisplay {
  /// The bytes that redraw `line` after `prompt` on the current row, `width` columns wide.
  ///
  /// ```swift
  /// LineDisplay.render(prompt: "> ", line: LineEditor("ping"), width: 80)
  /// // "\r> ping\u{1B}[0K\r\u{1B}[6C"
  /// ```
  public static func render(prompt: String, line: LineEditor, width: Int) -> String {
    let promptWidth = prompt.count
    var start = 0
    var length = line.characters.count
    var cursor = line.cursor
    // Scroll right until the cursor fits, then cut what overflows on the right.
    while promptWidth + cursor >= width, cursor > 0 {
      start += 1
      length -= 1
      cursor -= 1
    }
    while promptWidth + length > width, length > 0 { length -= 1 }
    let visible = String(line.characters[start..<(start + length)])
    var text = "\r" + prompt + visible + "\u{1B}[0K\r"
    let column = promptWidth + cursor
    if column > 0 { text += "\u{1B}[\(column)C" }
    return text
  }

  /// Candidates listed under the line, in columns as wide as the longest, filling `width`.
  public static func list(_ candidates: [String], width: Int) -> String {
    let column = (candidates.map(\.count).max() ?? 0) + 2
    let perRow = max(1, width / column)
    var text = ""
    for (index, candidate) in candidates.enumerated() {
      let last = index % perRow == perRow - 1 || index == candidates.count - 1
      text += last ? candidate + "\r\n" : candidate.padding(to: column)
    }
    return text
  }
}

extension String {
  fileprivate func padding(to width: Int) -> String {
    self + String(repeating: " ", count: max(0, width - count))
  }
}
