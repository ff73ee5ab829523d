/// The recursive-descent engine behind `JSONParser`: documents, values,
/// arrays, objects and literals. Strings and numbers live in their own files.
///
/// `position` always indexes `bytes`; every read is guarded by `position < end`.
struct JSONReader {
  let bytes: UnsafeRawBufferPointer
  let end: Int
  let maxDepth: Int
  var position = 0
  var depth = 0
  /// Reused buffer for strings that contain escapes.
  var scratch: [UInt8] = []

  init(bytes: UnsafeRawBufferPointer, maxDepth: Int) {
    self.bytes = bytes
    self.end = bytes.count
    self.maxDepth = maxDepth
  }

  mutating func parseDocument() throws(JSONError) -> JSON {
    skipWhitespace()
    let value = try parseValue()
    skipWhitespace()
    if position < end { throw unexpected(expected: "end of input after the JSON value") }
    return value
  }

  /// The byte at `position`, or nil at the end of input.
  var peek: UInt8? { position < end ? bytes[position] : nil }

  mutating func skipWhitespace() {
    while position < end {
      switch bytes[position] {
      case .space, .tab, .lineFeed, .carriageReturn: position += 1
      default: return
      }
    }
  }

  mutating func parseValue() throws(JSONError) -> JSON {
    guard let byte = peek else { throw unexpected(expected: "a value") }
    switch byte {
    case .openBrace: return try parseObject()
    case .openBracket: return try parseArray()
    case .quote: return .string(try parseString())
    case .minus, UInt8.digit0...UInt8.digit9: return try parseNumber()
    case UInt8(ascii: "t"):
      try expectLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectLiteral("null")
      return .null
    default: throw unexpected(expected: "a value")
    }
  }

  @inline(never)
  private mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
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

  @inline(never)
  private mutating func enterContainer() throws(JSONError) {
    depth += 1
    if depth > maxDepth {
      throw JSONError(.nestingTooDeep, "nesting deeper than \(maxDepth) levels", at: position)
    }
  }

  private mutating func parseArray() throws(JSONError) -> JSON {
    try enterContainer()
    position += 1  // '['
    var elements: [JSON] = []
    skipWhitespace()
    if peek != .closeBracket {
      elements.reserveCapacity(4)
      while true {
        skipWhitespace()
        elements.append(try parseValue())
        skipWhitespace()
        guard peek == .comma else { break }
        position += 1
      }
      guard peek == .closeBracket else {
        throw unexpected(expected: "',' or ']' after array element")
      }
    }
    position += 1
    depth -= 1
    return .array(elements)
  }

  private mutating func parseObject() throws(JSONError) -> JSON {
    try enterContainer()
    position += 1  // '{'
    var members: [JSONObject.Member] = []
    /// Key → position in `members`, once the object is too big to scan.
    var keyIndex: [String: Int]?
    skipWhitespace()
    if peek != .closeBrace {
      members.reserveCapacity(4)
      while true {
        guard peek == .quote else {
          let afterComma = !members.isEmpty
          throw unexpected(expected: afterComma ? "string key after ','" : "string key or '}'")
        }
        let key = try parseString()
        skipWhitespace()
        guard peek == .colon else { throw unexpected(expected: "':' after object key") }
        position += 1
        skipWhitespace()
        let value = try parseValue()
        add(JSONObject.Member(key: key, value: value), to: &members, keyIndex: &keyIndex)
        skipWhitespace()
        guard peek == .comma else { break }
        position += 1
        skipWhitespace()
      }
      guard peek == .closeBrace else {
        throw unexpected(expected: "',' or '}' after object member")
      }
    }
    position += 1
    depth -= 1
    return .object(JSONObject(uniqueEntries: members))
  }

  /// Appends `member`, or replaces the value of an earlier member with the
  /// same key (the last value wins, the first position stays).
  @inline(never)
  private func add(
    _ member: JSONObject.Member, to members: inout [JSONObject.Member],
    keyIndex: inout [String: Int]?
  ) {
    let existing: Int?
    if let keyIndex {
      existing = keyIndex[member.key]
    } else {
      existing = members.firstIndex { $0.key == member.key }
    }
    if let existing {
      members[existing].value = member.value
      return
    }
    members.append(member)
    if keyIndex != nil {
      keyIndex![member.key] = members.count - 1
    } else if members.count > JSONObject.indexThreshold {
      var map = [String: Int](minimumCapacity: members.count * 2)
      for (position, member) in members.enumerated() { map[member.key] = position }
      keyIndex = map
    }
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
