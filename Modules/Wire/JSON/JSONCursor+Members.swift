/// Pulling values out of a checked document (`readDocument()`), without a tree: the type
/// at the cursor, an object's members, one string or one scalar.
///
/// These reads trust that check: on bytes that were not checked they stop at the first
/// problem instead of reporting it.
extension JSONCursor {
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
    forEachChild { _ in count += 1 }
    return count
  }

  /// A cursor at the value of the member `name` of the object at the cursor: the last one
  /// when the key is repeated (as in a parsed tree). Nil when absent or not an object.
  public func member(_ name: String) -> JSONCursor? {
    var found: JSONCursor?
    forEachMember { key, value in
      if key.matches(name) { found = value }
    }
    return found
  }

  /// Calls `body` with each member of the object at the cursor, in order (a repeated key
  /// each time), and a cursor at its value. Nothing when the value is not an object.
  public func forEachMember<E: Error>(
    _ body: (JSONKey, JSONCursor) throws(E) -> Void
  ) throws(E) {
    guard isObject else { return }
    var walker = self
    do { try walker.enterObject() } catch { return }
    var first = true
    while true {
      let key: RawString?
      do { key = try walker.nextMember(first: first) } catch { return }
      guard let key else { return }
      first = false
      try body(JSONKey(cursor: walker, raw: key), walker)
      do { try walker.skipValue() } catch { return }
    }
  }

  /// Calls `body` with a cursor at each element of the array, or each member value of the
  /// object, at the cursor.
  private func forEachChild(_ body: (JSONCursor) -> Void) {
    if isObject {
      forEachMember { _, value in body(value) }
      return
    }
    guard peek == .openBracket else { return }
    var walker = self
    do {
      try walker.enterArray()
      var first = true
      while try walker.nextElement(first: first) {
        first = false
        body(walker)
        try walker.skipValue()
      }
    } catch {
      return
    }
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
}
