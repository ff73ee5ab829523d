/// Wire's one JSON tokenizer: a pull reader over a document's bytes.
///
/// Everything that reads JSON goes through it. `JSONParser` builds a `JSON` tree with it
/// (`readValue()`); the daemon reads a request's members straight from the frame's bytes
/// without a tree: it checks the whole document once (`readDocument()`, the same errors a
/// parse gives), then pulls what it needs (`member(_:)`, `forEachMember(_:)`, `readValue()`
/// for one scalar).
///
/// ```swift
/// let frame = Array(#"{"op":"send","event":{"type":"set","value":5}}"#.utf8)
/// try frame.withUnsafeBytes { bytes throws(JSONError) in
///   var cursor = JSONCursor(bytes)
///   try cursor.readDocument()                     // checked: the cursor is at the object
///   cursor.member("op")?.string                   // "send"
///   cursor.member("event")?.member("value")?.typeName  // "number"
/// }
/// ```
///
/// `position` always indexes `bytes`; every read is guarded by `position < end`. A cursor
/// only borrows the bytes: use it inside the `withUnsafeBytes` that made them.
public struct JSONCursor {
  let bytes: UnsafeRawBufferPointer
  let end: Int
  let maxDepth: Int
  /// The byte offset of the next token.
  public internal(set) var position = 0
  var depth = 0

  /// A cursor at the start of `bytes`.
  public init(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = JSONParser.defaultMaxDepth) {
    self.bytes = bytes
    self.end = bytes.count
    self.maxDepth = maxDepth
  }

  /// Checks that the bytes hold exactly one JSON document (RFC 8259, as `JSONParser` reads
  /// it: the same errors at the same offsets) without building anything, and leaves the
  /// cursor at its value. The reads that follow trust this check.
  public mutating func readDocument() throws(JSONError) {
    try readDocument(notingMembers: { _, _ in })
  }

  /// The byte at `position`, or nil at the end of input.
  var peek: UInt8? { position < end ? bytes[position] : nil }

  /// Moves past any whitespace at `position`. Inlined: the usual case, a token right there
  /// or the end, is one look (every whitespace byte is at most 0x20); a call per token cost
  /// more.
  @inline(__always)
  package mutating func skipWhitespace() {
    if position >= end || bytes[position] > .space { return }
    skipWhitespaceRun()
  }

  @inline(never)
  mutating func skipWhitespaceRun() {
    var index = position
    while index < end {
      switch bytes[index] {
      case .space, .tab, .lineFeed, .carriageReturn: index += 1
      default:
        position = index
        return
      }
    }
    position = index
  }

  /// Moves past the value at `position`, checking it as `readValue()` would.
  mutating func skipValue() throws(JSONError) {
    guard let byte = peek else { throw unexpected(expected: "a value") }
    switch byte {
    case .openBrace:
      var first = true
      var key: [UInt8] = []
      try enterObject()
      while try nextMember(first: first, decodingKey: &key) != nil {
        first = false
        try skipValue()
      }
    case .openBracket:
      var first = true
      try enterArray()
      while try nextElement(first: first) {
        first = false
        try skipValue()
      }
    case .quote:
      if scanPlainString() != nil { return }
      var decoded: [UInt8] = []
      _ = try scanString(decoding: &decoded)
    case .minus, UInt8.digit0...UInt8.digit9: _ = try parseNumber()
    case UInt8(ascii: "t"): try expectLiteral("true")
    case UInt8(ascii: "f"): try expectLiteral("false")
    case UInt8(ascii: "n"): try expectLiteral("null")
    default: throw unexpected(expected: "a value")
    }
  }

  @inline(never)
  mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
    let start = position
    let count = literal.utf8CodeUnitCount
    for offset in 0..<count {
      let expected = literal.utf8Start[offset]
      guard start + offset < end, bytes[start + offset] == expected else {
        position = start + offset
        throw unexpected(expected: "'\(literal)'")
      }
    }
    position = start + count
  }

  @inline(__always)
  private mutating func enterContainer() throws(JSONError) {
    depth += 1
    if depth > maxDepth { throw tooDeep() }
  }

  @inline(never)
  private func tooDeep() -> JSONError {
    JSONError(.nestingTooDeep, "nesting deeper than \(maxDepth) levels", at: position)
  }

  /// Enters the array whose `[` is at `position`.
  mutating func enterArray() throws(JSONError) {
    try enterContainer()
    position += 1
    skipWhitespace()
  }

  /// Moves to the next element of the array entered (true), or past its `]` (false).
  mutating func nextElement(first: Bool) throws(JSONError) -> Bool {
    if !first {
      skipWhitespace()
      if peek == .comma {
        position += 1
        skipWhitespace()
        return true
      }
      guard peek == .closeBracket else {
        throw unexpected(expected: "',' or ']' after array element")
      }
    } else if peek != .closeBracket {
      return true
    }
    position += 1
    depth -= 1
    return false
  }

  /// Enters the object whose `{` is at `position`. Inlined, as nextMember is: every request
  /// enters two objects.
  @inline(__always)
  mutating func enterObject() throws(JSONError) {
    try enterContainer()
    position += 1
    skipWhitespace()
  }

  /// Reads the next member's key and its `:` and stops at its value, or moves past the
  /// object's `}` (nil). Inlined into its two callers (the document's top level and
  /// skipValue): a call per member cost more than its work on a request's short keys.
  @inline(__always)
  mutating func nextMember(
    first: Bool, decodingKey decoded: inout [UInt8]
  ) throws(JSONError) -> RawString? {
    if first {
      if peek == .closeBrace {
        position += 1
        depth -= 1
        return nil
      }
    } else {
      skipWhitespace()
      if peek == .comma {
        position += 1
        skipWhitespace()
      } else {
        guard peek == .closeBrace else {
          throw unexpected(expected: "',' or '}' after object member")
        }
        position += 1
        depth -= 1
        return nil
      }
    }
    guard peek == .quote else {
      throw unexpected(expected: first ? "string key or '}'" : "string key after ','")
    }
    let key: RawString
    if let plain = scanPlainString() {
      key = plain
    } else {
      key = try scanString(decoding: &decoded)
    }
    skipWhitespace()
    guard peek == .colon else { throw unexpected(expected: "':' after object key") }
    position += 1
    skipWhitespace()
    return key
  }

  /// The error for finding something other than `expected` at `position`.
  /// A non-ASCII byte that does not start valid UTF-8 is reported as
  /// `.invalidUTF8` instead, since that is the more fundamental problem.
  @inline(never)
  func unexpected(expected: String) -> JSONError {
    guard position < end else {
      return JSONError(.syntax, "expected \(expected), found end of input", at: position)
    }
    let byte = bytes[position]
    let found: String
    switch byte {
    case 0x20...0x7E: found = "'\(Character(Unicode.Scalar(byte)))'"
    case 0x80...:
      guard let (scalar, _) = decodeScalar(at: position) else {
        return JSONError(.invalidUTF8, "invalid UTF-8", at: position)
      }
      found = "'\(Character(scalar))' (U+\(hex(scalar.value, digits: 4)))"
    default: found = "control character 0x\(hex(UInt32(byte), digits: 2))"
    }
    return JSONError(.syntax, "expected \(expected), found \(found)", at: position)
  }
}
