/// The usual request, a `send` as clients write it (`Request.serialized()`, the load tools):
/// `{"op":"send","feature":"<name>","event":{"type":"<type>"}}`, optionally after
/// `"id":<integer>,`, with no whitespace, both texts printable ASCII without escapes (`plainTextEnd`). Such
/// bytes are one JSON object with those members and no other, each once, so the head they
/// give is the one the general pass gives; anything else (another order, whitespace, an
/// escape, a field in the event) goes the general way.
extension RequestHead {
  /// The head of `bytes` when they are the usual send, else nil.
  static func usualSend(_ bytes: UnsafeRawBufferPointer) -> RequestHead? {
    var index = 0
    var idAt = noID
    var idNumber: Int64 = 0
    if bytes.has("{\"id\":", at: 0) {
      guard let (value, end) = integerID(bytes, from: 6), bytes.has(",\"op\":\"send\"", at: end)
      else { return nil }
      idAt = numberID
      idNumber = value
      index = end + 12
    } else if bytes.has("{\"op\":\"send\"", at: 0) {
      index = 12
    } else {
      return nil
    }
    guard bytes.has(",\"feature\":\"", at: index) else { return nil }
    let feature = index + 11
    let featureEnd = bytes.plainTextEnd(from: feature + 1)
    guard featureEnd > 0, bytes.has("\",\"event\":{\"type\":\"", at: featureEnd) else {
      return nil
    }
    let event = featureEnd + 10
    let typeStart = featureEnd + 19
    let typeEnd = bytes.plainTextEnd(from: typeStart)
    guard typeEnd > 0, typeEnd + 3 == bytes.count, bytes.has("\"}}", at: typeEnd) else {
      return nil
    }
    // `send` is Request.Op.all[0]; its value's quote is 6 bytes before `,"feature"`.
    return RequestHead(
      bytes, idAt: idAt, idNumber: idNumber, knownOp: 0, opAt: index - 6, feature: feature,
      featureEnd: featureEnd, event: event, eventTypeStart: typeStart, eventTypeEnd: typeEnd)
  }

  /// A JSON integer at `start` (`0`, or digits not starting with 0, after an optional `-`;
  /// not `-0`) of at most 18 digits, so it is exact in an Int64, and where it ends; else nil.
  private static func integerID(
    _ bytes: UnsafeRawBufferPointer, from start: Int
  ) -> (Int64, end: Int)? {
    var index = start
    let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
    if negative { index += 1 }
    let first = index
    var value: Int64 = 0
    while index < bytes.count, index - first < 18, bytes[index] &- 0x30 < 10 {
      value = value * 10 + Int64(bytes[index] &- 0x30)
      index += 1
    }
    let digits = index - first
    guard digits > 0, digits == 1 || bytes[first] != UInt8(ascii: "0"), !negative || value != 0
    else { return nil }
    return (negative ? -value : value, index)
  }
}

extension UnsafeRawBufferPointer {
  /// Whether `text`'s UTF-8 is at `offset` of these bytes: compared as loaded words, inlined
  /// (a call to memcmp cost more than the compare for these few bytes).
  @inline(__always)
  fileprivate func has(_ text: StaticString, at offset: Int) -> Bool {
    let count = text.utf8CodeUnitCount
    guard offset >= 0, offset + count <= self.count, let base = baseAddress else { return false }
    return Self.sameBytes(base + offset, UnsafeRawPointer(text.utf8Start), count: count)
  }
}
