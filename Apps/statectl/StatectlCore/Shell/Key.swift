/// A key the interactive shell understands, decoded from the bytes a terminal sends.
public enum Key: Equatable, Sendable {
  case character(Character)
  case enter, tab, backspace, delete
  case left, right, home, end, up, down
  /// Ctrl-U: delete from the start of the line to the cursor.
  case deleteToStart
  /// Ctrl-K: delete from the cursor to the end of the line.
  case deleteToEnd
  /// Ctrl-W: delete the word before the cursor.
  case deleteWord
  /// Ctrl-C: abandon the line.
  case interrupt
  /// Ctrl-D: end of input on an empty line, else delete the character under the cursor.
  case endOfInput
  /// Ctrl-L.
  case clearScreen
  /// A sequence the shell does not use (function keys, Alt-…): ignored.
  case ignored
}

/// Turns the bytes read from a terminal into keys. A sequence split between two reads is kept
/// until its end arrives, so nothing depends on how the bytes were chunked (and no timer is
/// needed: a lone Escape waits for the next key, which it is then ignored with).
///
/// ```swift
/// var decoder = KeyDecoder()
/// decoder.keys(from: Array("ab\u{1B}[D".utf8))  // [.character("a"), .character("b"), .left]
/// ```
public struct KeyDecoder: Sendable {
  private var pending: [UInt8] = []

  public init() {}

  public mutating func keys(from bytes: [UInt8]) -> [Key] {
    pending += bytes
    var keys: [Key] = []
    var index = 0
    while index < pending.count {
      guard let (key, length) = Self.key(at: index, in: pending) else { break }
      keys.append(key)
      index += length
    }
    pending.removeFirst(index)
    return keys
  }

  /// The key starting at `index` and its length in bytes; nil when its bytes are incomplete.
  static func key(at index: Int, in bytes: [UInt8]) -> (Key, Int)? {
    let byte = bytes[index]
    switch byte {
    case 0x1B: return escape(at: index, in: bytes)
    case 0x0D, 0x0A: return (.enter, 1)
    case 0x09: return (.tab, 1)
    case 0x7F, 0x08: return (.backspace, 1)
    case 0x01: return (.home, 1)
    case 0x02: return (.left, 1)
    case 0x03: return (.interrupt, 1)
    case 0x04: return (.endOfInput, 1)
    case 0x05: return (.end, 1)
    case 0x06: return (.right, 1)
    case 0x0B: return (.deleteToEnd, 1)
    case 0x0C: return (.clearScreen, 1)
    case 0x0E: return (.down, 1)
    case 0x10: return (.up, 1)
    case 0x15: return (.deleteToStart, 1)
    case 0x17: return (.deleteWord, 1)
    case ..<0x20: return (.ignored, 1)
    case ..<0x80: return (.character(Character(Unicode.Scalar(byte))), 1)
    default: return utf8(at: index, in: bytes)
    }
  }

  /// ESC [ … final, ESC O x, or ESC followed by anything else (Alt-x: ignored).
  static func escape(at index: Int, in bytes: [UInt8]) -> (Key, Int)? {
    guard index + 1 < bytes.count else { return nil }
    let kind = bytes[index + 1]
    if kind == UInt8(ascii: "O") {
      guard index + 2 < bytes.count else { return nil }
      return (finalKey(bytes[index + 2], parameter: 0), 3)
    }
    guard kind == UInt8(ascii: "[") else { return (.ignored, 2) }
    // Parameters and intermediates (0x20–0x3F) up to a final byte (0x40–0x7E).
    var end = index + 2
    while end < bytes.count, (0x20...0x3F).contains(bytes[end]) { end += 1 }
    guard end < bytes.count else { return nil }
    let parameter = Int(String(decoding: bytes[(index + 2)..<end], as: UTF8.self)) ?? 0
    return (finalKey(bytes[end], parameter: parameter), end - index + 1)
  }

  /// The key a CSI or SS3 sequence ends with; `parameter` is the number before `~` (0: none).
  static func finalKey(_ byte: UInt8, parameter: Int) -> Key {
    switch Unicode.Scalar(byte) {
    case "A": .up
    case "B": .down
    case "C": .right
    case "D": .left
    case "H": .home
    case "F": .end
    case "~":
      switch parameter {
      case 1, 7: .home
      case 4, 8: .end
      case 3: .delete
      default: .ignored
      }
    default: .ignored
    }
  }

  /// One UTF-8 encoded character; an invalid byte is ignored.
  static func utf8(at index: Int, in bytes: [UInt8]) -> (Key, Int)? {
    let byte = bytes[index]
    let length =
      switch byte {
      case 0xC2...0xDF: 2
      case 0xE0...0xEF: 3
      case 0xF0...0xF4: 4
      default: 0
      }
    guard length > 0 else { return (.ignored, 1) }
    guard index + length <= bytes.count else { return nil }
    let text = String(decoding: bytes[index..<(index + length)], as: UTF8.self)
    guard let character = text.first, text.unicodeScalars.first?.value != 0xFFFD else {
      return (.ignored, 1)
    }
    return (.character(character), length)
  }
}
