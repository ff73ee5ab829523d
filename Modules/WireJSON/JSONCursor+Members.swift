/// Pulling values out of a checked document (`readDocument()`), without a tree: the type
/// at the cursor, an object's members, one string or one scalar.
///
/// These reads trust that check: they skip what they pass over without checking it again
/// (a string to its closing quote, a container to its closing bracket), so each member
/// costs a look at its bytes, not a second parse. On bytes that were not checked they may
/// read nonsense, never out of bounds.
extension JSONCursor {
  /// A cursor at `position` of `bytes`, a checked document: where an earlier read found a
  /// value (``position``).
  public init(_ bytes: UnsafeRawBufferPointer, at position: Int) {
    self.init(bytes)
    self.position = position
  }

  /// The JSON type of the value at the cursor, as messages name it: `null`, `boolean`,
  /// `number`, `string`, `array` or `object` (as `JSON.typeName`).
  public var typeName: String {
    switch peek {
    case .openBrace: "object"
    case .openBracket: "array"
    case .quote: "string"
    case UInt8(ascii: "t"), UInt8(ascii: "f"): "boolean"
    case UInt8(ascii: "n"): "null"
    default: "number"
    }
  }

  /// Whether the value at the cursor is an object.
  public var isObject: Bool { peek == .openBrace }

  /// Whether the value at the cursor is `null`.
  public var isNull: Bool { peek == UInt8(ascii: "n") }

  /// Whether the value at the cursor is a string.
  public var isString: Bool { peek == .quote }

  /// Whether the value at the cursor is the string `text` (escapes decoded, so `"ty\u0070e"`
  /// is `type`), compared byte by byte without making a `String` when it has no escapes.
  public func isString(_ text: String) -> Bool {
    guard peek == .quote else { return false }
    var walker = self
    let escaped = walker.skipCheckedString()
    return matches(RawString(quote: position, close: walker.position - 1, escaped: escaped), text)
  }

  /// The text of the object at the cursor when its one member is `key`, a string written
  /// without escapes (the `increment` of `{"type":"increment"}`), else nil: the usual event,
  /// read in one short scan instead of a walk over its members.
  package func soleStringMember(_ key: StaticString) -> UnsafeRawBufferPointer? {
    var walker = self
    walker.skipWhitespace()
    guard walker.peek == .openBrace else { return nil }
    walker.position += 1
    walker.skipWhitespace()
    guard walker.peek == .quote else { return nil }
    let count = key.utf8CodeUnitCount
    let keyStart = walker.position + 1
    guard keyStart + count < end, bytes[keyStart + count] == .quote else { return nil }
    for offset in 0..<count where bytes[keyStart + offset] != key.utf8Start[offset] {
      return nil
    }
    walker.position = keyStart + count + 1
    walker.skipWhitespace()
    guard walker.peek == .colon else { return nil }
    walker.position += 1
    walker.skipWhitespace()
    guard walker.peek == .quote else { return nil }
    let start = walker.position + 1
    var index = plainRun(at: start)
    while index < end, bytes[index] != .quote {
      if bytes[index] == .backslash { return nil }
      index += 1
    }
    guard index < end else { return nil }
    walker.position = index + 1
    walker.skipWhitespace()
    guard walker.peek == .closeBrace else { return nil }
    return UnsafeRawBufferPointer(rebasing: bytes[start..<index])
  }

  /// The string at the cursor, or nil for another type.
  public var string: String? {
    guard peek == .quote else { return nil }
    var copy = self
    return try? copy.parseString()
  }

  /// The value at the cursor as a tree: for one scalar (no allocation but a long string's),
  /// or where a tree is really wanted.
  public var json: JSON {
    var copy = self
    return (try? copy.readValue()) ?? .null
  }

  /// How many elements the array at the cursor has, or members the object has (a repeated
  /// key counted each time); 0 for anything else.
  public var count: Int {
    var count = 0
    if isObject {
      forEachMember { _, _ in
        count += 1
        return true
      }
      return count
    }
    guard peek == .openBracket else { return 0 }
    var walker = self
    walker.position += 1
    walker.skipWhitespace()
    while walker.peek != .closeBracket && walker.position < end {
      count += 1
      walker.skipChecked()
      walker.skipWhitespace()
      if walker.peek == .comma {
        walker.position += 1
        walker.skipWhitespace()
      }
    }
    return count
  }

  /// A cursor at the value of the member `name` of the object at the cursor: the last one
  /// when the key is repeated (as in a parsed tree). Nil when absent or not an object.
  public func member(_ name: String) -> JSONCursor? {
    var found: JSONCursor?
    forEachMember { key, value in
      if key.matches(name) { found = value }
      return true
    }
    return found
  }

  /// Calls `body` with each member of the object at the cursor, in order (a repeated key
  /// each time), and a cursor at its value, until `body` returns false. Nothing when the
  /// value is not an object.
  public func forEachMember(_ body: (JSONKey, JSONCursor) -> Bool) {
    var walker = self
    walker.skipWhitespace()
    guard walker.isObject else { return }
    walker.position += 1
    while let key = walker.nextCheckedMember() {
      guard body(JSONKey(cursor: walker, raw: key), walker) else { return }
      walker.skipChecked()
    }
  }

  /// Reads the next member's key and its `:` (after `{` or a value) and stops at its value,
  /// or returns nil at the object's end.
  private mutating func nextCheckedMember() -> RawString? {
    skipWhitespace()
    if peek == .comma {
      position += 1
      skipWhitespace()
    }
    guard peek == .quote else { return nil }
    let quote = position
    let escaped = skipCheckedString()
    let key = RawString(quote: quote, close: position - 1, escaped: escaped)
    skipWhitespace()
    position += 1  // ':'
    skipWhitespace()
    return key
  }

  /// Moves past the value at the cursor of a checked document, without checking it again.
  mutating func skipChecked() {
    guard let byte = peek else { return }
    switch byte {
    case .quote:
      skipCheckedString()
    case .openBrace, .openBracket:
      var level = 0
      while position < end {
        switch bytes[position] {
        case .quote:
          skipCheckedString()
          continue
        case .openBrace, .openBracket: level += 1
        case .closeBrace, .closeBracket:
          level -= 1
          if level == 0 {
            position += 1
            return
          }
        default: break
        }
        position += 1
      }
    default:  // a number or a literal
      while position < end {
        switch bytes[position] {
        case .comma, .closeBrace, .closeBracket, .space, .tab, .lineFeed, .carriageReturn: return
        default: position += 1
        }
      }
    }
  }

  /// Moves past the string whose opening quote is at the cursor; whether it holds escapes.
  @discardableResult
  private mutating func skipCheckedString() -> Bool {
    var escaped = false
    var index = position + 1
    while index < end {
      switch bytes[index] {
      case .quote:
        position = index + 1
        return escaped
      case .backslash:
        escaped = true
        index += 2
      default:
        index += 1
      }
    }
    position = index
    return escaped
  }
}

/// The key of an object member, read from the bytes without making a `String` unless asked.
public struct JSONKey {
  let cursor: JSONCursor
  let raw: JSONCursor.RawString

  /// Whether the key is `name` (escapes decoded, so `"ty\u0070e"` is `type`).
  public func matches(_ name: String) -> Bool { cursor.matches(raw, name) }

  /// The key's text.
  public var string: String { cursor.string(raw) }

  /// The key's bytes as written, when it holds no escape (then they are its text's UTF-8),
  /// else nil: to compare a key without making a `String`. Valid where the cursor's bytes are.
  public var unescapedBytes: UnsafeRawBufferPointer? {
    raw.escaped ? nil : cursor.content(raw)
  }
}
