/// The line being typed at the shell's prompt and the cursor in it, changed by editing keys.
/// Knows nothing of terminals: `LineDisplay` draws it.
///
/// ```swift
/// var line = LineEditor("send counter")
/// line.apply(.deleteWord)  // "send "
/// line.insert("ping")      // "send ping", the cursor at the end
/// ```
public struct LineEditor: Equatable, Sendable {
  public private(set) var characters: [Character]
  /// Where the next character goes: 0 ... characters.count.
  public private(set) var cursor: Int

  public init(_ text: String = "") {
    characters = Array(text)
    cursor = characters.count
  }

  public var text: String { String(characters) }
  public var isEmpty: Bool { characters.isEmpty }
  /// The text before the cursor (what completion looks at).
  public var textBeforeCursor: String { String(characters[..<cursor]) }

  /// Replaces the whole line, the cursor at its end (a line recalled from history).
  public mutating func replace(with text: String) {
    self = LineEditor(text)
  }

  public mutating func insert(_ text: String) {
    let new = Array(text)
    characters.insert(contentsOf: new, at: cursor)
    cursor += new.count
  }

  /// Replaces the `count` characters before the cursor with `text` (a completed word).
  public mutating func replaceBeforeCursor(_ count: Int, with text: String) {
    let start = cursor - min(count, cursor)
    characters.removeSubrange(start..<cursor)
    cursor = start
    insert(text)
  }

  /// Applies an editing key; returns false for keys that do not edit or move.
  @discardableResult
  public mutating func apply(_ key: Key) -> Bool {
    switch key {
    case .character(let character): insert(String(character))
    case .left: cursor = max(0, cursor - 1)
    case .right: cursor = min(characters.count, cursor + 1)
    case .home: cursor = 0
    case .end: cursor = characters.count
    case .backspace:
      guard cursor > 0 else { return true }
      characters.remove(at: cursor - 1)
      cursor -= 1
    case .delete, .endOfInput:
      guard cursor < characters.count else { return true }
      characters.remove(at: cursor)
    case .deleteToStart:
      characters.removeSubrange(0..<cursor)
      cursor = 0
    case .deleteToEnd:
      characters.removeSubrange(cursor...)
    case .deleteWord:
      // Like readline's unix-word-rubout: the spaces before the cursor, then the word.
      var start = cursor
      while start > 0, characters[start - 1] == " " { start -= 1 }
      while start > 0, characters[start - 1] != " " { start -= 1 }
      characters.removeSubrange(start..<cursor)
      cursor = start
    default:
      return false
    }
    return true
  }
}
