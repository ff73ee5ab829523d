/// Building a `JSON` tree with the tokenizer: what `JSONParser` returns, and what the daemon
/// builds for one member where a tree is really wanted (an `any`-typed value).
extension JSONCursor {
  /// Parses one whole document into a tree.
  mutating func parseDocument() throws(JSONError) -> JSON {
    skipWhitespace()
    let value = try readValue()
    skipWhitespace()
    if position < end { throw unexpected(expected: "end of input after the JSON value") }
    return value
  }

  /// The value at the cursor as a tree; the cursor moves past it.
  public mutating func readValue() throws(JSONError) -> JSON {
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

  private mutating func parseArray() throws(JSONError) -> JSON {
    var elements: [JSON] = []
    try enterArray()
    while try nextElement(first: elements.isEmpty) {
      if elements.isEmpty { elements.reserveCapacity(4) }
      elements.append(try readValue())
    }
    return .array(elements)
  }

  private mutating func parseObject() throws(JSONError) -> JSON {
    var members: [JSONObject.Member] = []
    /// Key → position in `members`, once the object is too big to scan.
    var keyIndex: [String: Int]?
    var decoded: [UInt8] = []
    try enterObject()
    while let key = try nextMember(first: members.isEmpty, decodingKey: &decoded) {
      if members.isEmpty { members.reserveCapacity(4) }
      let name =
        key.escaped
        ? String(decoding: decoded, as: UTF8.self)
        : String(decoding: content(key), as: UTF8.self)
      let value = try readValue()
      add(JSONObject.Member(key: name, value: value), to: &members, keyIndex: &keyIndex)
    }
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
}
