/// The check of a document that notes its top-level members on the way: a request's reader
/// finds the members it wants, and what their values are when they are the usual short ones,
/// in the one pass that checks the frame.
extension JSONCursor {
  /// Where a top-level member's value is, and what the check learned of it in passing.
  package struct NotedValue {
    /// Where the value starts (a cursor there: `JSONCursor(bytes, at:)`).
    package let start: Int
    /// Where the closing quote is when the value is a string of printable ASCII without
    /// escapes (its text is then `start + 1 ..< plainEnd`), else -1.
    package let plainEnd: Int
    /// When the value is an object of one member whose key and string value are both such
    /// plain text (`{"type":"increment"}`, the usual event): the key's text and the value's,
    /// as offsets of the bytes; else nil.
    package let sole: (key: Range<Int>, text: Range<Int>)?
  }

  /// ``readDocument()``, calling `member` with each member of the document's object (when it
  /// is one) as the check passes it, so that a reader of the top level needs no second pass:
  /// the key's text as bytes (its escapes decoded; valid during the call only) and its
  /// ``NotedValue``. No key or cursor is made per member: this is the request head's reader,
  /// on every request.
  package mutating func readDocument(
    notingMembers member: (_ key: UnsafeRawBufferPointer, _ value: NotedValue) -> Void
  ) throws(JSONError) {
    skipWhitespace()
    let start = position
    if peek == .openBrace {
      var first = true
      var key: [UInt8] = []
      try enterObject()
      while let raw = try nextMember(first: first, decodingKey: &key) {
        first = false
        let value = position
        var plainEnd = -1
        var sole: (key: Range<Int>, text: Range<Int>)?
        if peek == .quote, let text = scanPlainString() {
          plainEnd = text.close
        } else if peek == .openBrace, let member = scanSolePlainMember() {
          sole = member
        } else {
          try skipValue()
        }
        let noted = NotedValue(start: value, plainEnd: plainEnd, sole: sole)
        if raw.escaped {
          key.withUnsafeBytes { member($0, noted) }
        } else {
          member(content(raw), noted)
        }
      }
    } else {
      try skipValue()
    }
    skipWhitespace()
    if position < end { throw unexpected(expected: "end of input after the JSON value") }
    position = start
    depth = 0
  }

  /// Moves past the object whose `{` is at `position` when it is one member whose key and
  /// string value are plain text (``scanPlainString()``), and returns their texts' offsets;
  /// else returns nil and leaves `position` alone, for ``skipValue()`` to read the object
  /// again with every check (so its errors are unchanged). What it accepts is valid JSON:
  /// whitespace where JSON allows it, plain strings, and a depth the check allows.
  @inline(__always)
  mutating func scanSolePlainMember() -> (key: Range<Int>, text: Range<Int>)? {
    let start = position
    guard depth < maxDepth else { return nil }
    position += 1
    skipWhitespace()
    if position < end, bytes[position] == .quote, let key = scanPlainString() {
      skipWhitespace()
      if peek == .colon {
        position += 1
        skipWhitespace()
        if peek == .quote, let text = scanPlainString() {
          skipWhitespace()
          if peek == .closeBrace {
            position += 1
            return (
              Range(uncheckedBounds: (key.quote + 1, key.close)),
              Range(uncheckedBounds: (text.quote + 1, text.close))
            )
          }
        }
      }
    }
    position = start
    return nil
  }
}
