import Glibc  // memcmp

/// A request as a server reads it: its `id` and `op` straight from the frame's bytes, and
/// any other member pulled from them when the op asks for it. No tree is built for the
/// request; where an op really wants one (an `any`-typed value), it asks for that member's.
///
/// ```swift
/// try frame.withUnsafeBytes { bytes in
///   let request = try RequestHead(reading: bytes)  // throws RequestError, as Request(parsing:)
///   request.op                                      // "send"
///   request.withMember("event") { event in event?.member("type")?.string }  // "increment"
///   request["select"]                               // JSON? of one member
/// }
/// ```
///
/// A repeated member counts once, with its last value (`{"op":"get","op":"ping"}` is a
/// ping), as in a parsed tree: PROTOCOL.md says so.
///
/// Like a `JSONCursor`, a head only borrows the frame's bytes: use it while they live. A
/// server reads each frame where it lies; a head that held the frame (an array) cost a
/// retain and a release per request, and an access through the array's `withUnsafeBytes`
/// per member read.
public struct RequestHead {
  /// The frame the request was read from (a line without its terminator), borrowed.
  @usableFromInline let bytes: UnsafeRawBufferPointer
  /// The id: ``noID``, ``numberID`` (its value is `idNumber`), or where its string value
  /// starts in `bytes`. Every field of a head is a plain number, so a head is copied and
  /// dropped without a call: a `RequestID?` and a `String` stored here made its destroy go
  /// through its type's value witnesses (about 40 instructions per request), and every copy
  /// of the id an outlined one.
  let idAt: Int
  let idNumber: Int64
  /// The op's index in `Request.Op.all`, or -1 for another op (read from `bytes` at `opAt`).
  let knownOp: Int
  let opAt: Int
  /// Where the values of `feature` and `event` start in `bytes` (-1: absent), found in the
  /// one pass that read `id` and `op`: every `send` reads both.
  @usableFromInline let feature: Int
  @usableFromInline let event: Int
  /// Where the closing quote of `feature`'s value is when it is a string of printable ASCII
  /// without escapes (as a feature's name always is), else -1: found by the same pass.
  @usableFromInline let featureEnd: Int
  /// Where the text of the event's `type` is when the event is that member alone, both
  /// written as plain text (`{"type":"increment"}`, the usual event), else -1 for both: found
  /// by the same pass, so the event's reader does not scan it again.
  @usableFromInline let eventTypeStart: Int
  @usableFromInline let eventTypeEnd: Int

  static var noID: Int { -1 }
  static var numberID: Int { -2 }

  /// Reads the `id` and `op` of one frame, `bytes`, which the head borrows.
  ///
  /// Checks, in order: UTF-8 (`invalid_utf8`) and JSON syntax (`parse_error`) of the whole
  /// frame, an object (`not_an_object`), `"id"` is a number or string (`invalid_field`),
  /// `"op"` is present (`missing_field`) and a string (`invalid_field`). The thrown
  /// `RequestError` carries the id whenever it could be read. Whether the op is known is the
  /// server's business (`unknown_op`).
  public init(reading bytes: UnsafeRawBufferPointer) throws(RequestError) {
    // A send as clients write it, byte for byte: read without the general pass.
    if let usual = Self.usualSend(bytes) {
      self = usual
    } else {
      self = try Self.readInFull(bytes)
    }
  }

  init(
    _ bytes: UnsafeRawBufferPointer, idAt: Int, idNumber: Int64, knownOp: Int, opAt: Int,
    feature: Int, featureEnd: Int, event: Int, eventTypeStart: Int, eventTypeEnd: Int
  ) {
    self.bytes = bytes
    self.idAt = idAt
    self.idNumber = idNumber
    self.knownOp = knownOp
    self.opAt = opAt
    self.feature = feature
    self.featureEnd = featureEnd
    self.event = event
    self.eventTypeStart = eventTypeStart
    self.eventTypeEnd = eventTypeEnd
  }

  /// The correlation id, echoed in the reply; nil when the request had none.
  public var id: RequestID? {
    switch idAt {
    case Self.noID: nil
    case Self.numberID: .number(idNumber)
    default: .string(JSONCursor(bytes, at: idAt).string ?? "")
    }
  }

  /// The operation name, e.g. `"send"`.
  public var op: String {
    knownOp >= 0 ? Request.Op.all[knownOp] : JSONCursor(bytes, at: opAt).string ?? ""
  }

  /// Whether the op is `send`, the usual one: one compare.
  public var isSend: Bool { knownOp == 0 }

  /// The head of any frame, by the general pass (one check of the whole frame).
  static func readInFull(_ bytes: UnsafeRawBufferPointer) throws(RequestError) -> RequestHead {
    var cursor = JSONCursor(bytes)
    var idValue: JSONCursor?
    var opValue: JSONCursor?
    var opEnd = -1
    var feature = -1
    var featureEnd = -1
    var event = -1
    var eventType = Range(uncheckedBounds: (-1, -1))
    do {
      // One pass: the whole frame checked, and the members the head wants noted on the way,
      // their keys compared as loaded words (a key with escapes, rare, decoded first), and
      // where the text of `op`, `feature` and the event's sole `type` is when it is plain, as
      // the check found it.
      try cursor.readDocument(notingMembers: { name, value in
        switch name.count {
        case 2:
          let word = name.loadUnaligned(as: UInt16.self)
          if word == Key.op {
            opValue = JSONCursor(bytes, at: value.start)
            opEnd = value.plainEnd
          } else if word == Key.id {
            idValue = JSONCursor(bytes, at: value.start)
          }
        case 5:
          guard name.loadUnaligned(as: UInt32.self) == Key.even, name[4] == UInt8(ascii: "t")
          else { return }
          event = value.start
          eventType = Range(uncheckedBounds: (-1, -1))
          if let sole = value.sole, sole.key.count == 4,
            bytes.loadUnaligned(fromByteOffset: sole.key.lowerBound, as: UInt32.self) == Key.type
          {
            eventType = sole.text
          }
        case 7:
          // Two words that overlap by a byte: "feat" and "ture".
          guard name.loadUnaligned(as: UInt32.self) == Key.feat,
            name.loadUnaligned(fromByteOffset: 3, as: UInt32.self) == Key.ture
          else { return }
          feature = value.start
          featureEnd = value.plainEnd
        default: break
        }
      })
    } catch {
      throw RequestError(id: nil, error: WireError(error))
    }
    guard cursor.isObject else {
      throw RequestError(
        id: nil,
        error: WireError(.notAnObject, "request must be a JSON object, got \(cursor.typeName)"))
    }
    var id: RequestID?
    var idAt = noID
    var idNumber: Int64 = 0
    if let idValue {
      guard idValue.string != nil || idValue.typeName == "number",
        let parsed = RequestID(json: idValue.json)
      else {
        throw RequestError(
          id: nil,
          error: .invalidField("id", expected: "an integer or a string", got: idValue.typeName))
      }
      id = parsed
      switch parsed {
      case .number(let value):
        idAt = numberID
        idNumber = value
      case .string: idAt = idValue.position
      }
    }
    guard let opValue else { throw RequestError(id: id, error: .missingField("op")) }
    // A known op is found by its bytes (no String made per request).
    var known = -1
    if opEnd >= 0 {
      known = knownOpIndex(
        UnsafeRawBufferPointer(rebasing: bytes[(opValue.position + 1)..<opEnd]))
    } else {
      guard let op = opValue.string else {
        throw RequestError(
          id: id, error: .invalidField("op", expected: "a string", got: opValue.typeName))
      }
      // Escaped, or not plain text: a known op all the same when its text is one.
      known = Request.Op.all.firstIndex(of: op) ?? -1
    }
    return RequestHead(
      bytes, idAt: idAt, idNumber: idNumber, knownOp: known, opAt: opValue.position,
      feature: feature, featureEnd: featureEnd, event: event,
      eventTypeStart: eventType.lowerBound, eventTypeEnd: eventType.upperBound)
  }

  /// The keys the head looks for, as their bytes load (little-endian) into a word: compared in
  /// one instruction, not by `memcmp`. Computed, so they fold into constants (a `static let`
  /// would be a lazy global, looked up on each use).
  private enum Key {
    static var op: UInt16 { word16("o", "p") }
    static var id: UInt16 { word16("i", "d") }
    static var even: UInt32 { word32("e", "v", "e", "n") }
    static var feat: UInt32 { word32("f", "e", "a", "t") }
    static var ture: UInt32 { word32("t", "u", "r", "e") }
    static var type: UInt32 { word32("t", "y", "p", "e") }

    @inline(__always)
    static func word16(_ a: Unicode.Scalar, _ b: Unicode.Scalar) -> UInt16 {
      UInt16(littleEndian: UInt16(a.value) | UInt16(b.value) << 8)
    }

    @inline(__always)
    static func word32(
      _ a: Unicode.Scalar, _ b: Unicode.Scalar, _ c: Unicode.Scalar, _ d: Unicode.Scalar
    ) -> UInt32 {
      UInt32(littleEndian: a.value | b.value << 8 | c.value << 16 | d.value << 24)
    }
  }

  /// The protocol's op (one of `Request.Op.all`) these bytes spell, or nil.
  package static func knownOp(_ text: UnsafeRawBufferPointer) -> String? {
    let index = knownOpIndex(text)
    return index < 0 ? nil : Request.Op.all[index]
  }

  /// The index in `Request.Op.all` of the op these bytes spell, or -1.
  static func knownOpIndex(_ text: UnsafeRawBufferPointer) -> Int {
    switch text.count {
    case 3: return text.spells("get") ? 1 : -1
    case 4:
      if text.spells("send") { return 0 }
      if text.spells("undo") { return 6 }
      if text.spells("redo") { return 7 }
      if text.spells("ping") { return 8 }
      if text.spells("goto") { return 13 }
      return text.spells("info") ? 11 : -1
    case 5: return text.spells("watch") ? 2 : -1
    case 7:
      if text.spells("unwatch") { return 3 }
      if text.spells("monitor") { return 9 }
      if text.spells("history") { return 12 }
      return text.spells("restore") ? 14 : -1
    case 8:
      if text.spells("features") { return 4 }
      return text.spells("describe") ? 5 : -1
    case 9: return text.spells("unmonitor") ? 10 : -1
    default: return -1
    }
  }

  /// Runs `body` with a cursor at the value of the member `name` (the last one when the key
  /// is repeated), or nil when the request has none. The cursor reads the frame's bytes.
  @inlinable
  public func withMember<Result, E: Error>(
    _ name: String, _ body: (JSONCursor?) throws(E) -> Result
  ) throws(E) -> Result {
    let known = name == "event" ? event : name == "feature" ? feature : nil
    if let known {
      return try body(known < 0 ? nil : JSONCursor(bytes, at: known))
    }
    return try body(JSONCursor(bytes, at: 0).member(name))
  }

  /// Runs `body` with a cursor at the `event` member's value (the last one when the key is
  /// repeated), or nil when the request has none, and, when that value is an object of a
  /// `type` alone, both written as plain text (`{"type":"increment"}`, the usual event), the
  /// type's text: the pass that read the head found it, so the event's reader need not scan
  /// it again. Both read the frame's bytes.
  @inlinable
  package func withEvent<Result, E: Error>(
    _ body: (_ event: JSONCursor?, _ soleType: UnsafeRawBufferPointer?) throws(E) -> Result
  ) throws(E) -> Result {
    guard event >= 0 else { return try body(nil, nil) }
    let soleType =
      eventTypeEnd < 0
      ? nil : UnsafeRawBufferPointer(rebasing: bytes[eventTypeStart..<eventTypeEnd])
    return try body(JSONCursor(bytes, at: event), soleType)
  }

  /// Runs `body` with the bytes of the `feature` member's text when it is a string of printable
  /// ASCII without escapes (as a feature's name of letters, digits, `.`, `-` and `_` always
  /// is), else returns nil: to find the feature without making a `String` per request.
  @inlinable
  public func withPlainFeatureName<Result>(
    _ body: (UnsafeRawBufferPointer) -> Result?
  ) -> Result? {
    guard featureEnd >= 0 else { return nil }
    return body(UnsafeRawBufferPointer(rebasing: bytes[(feature + 1)..<featureEnd]))
  }

  /// The member `name` as a tree, or nil when absent: for the ops whose members are small or
  /// of any type (`select`, `features`, `seq`, `state`).
  public subscript(name: String) -> JSON? {
    withMember(name) { $0?.json }
  }

  /// Every member but `id` and `op`, in order, as a tree.
  public var fields: JSONObject {
    var object = (try? JSONParser().parse(bytes))?.objectValue ?? [:]
    object.removeValue(forKey: "id")
    object.removeValue(forKey: "op")
    return object
  }
}

extension UnsafeRawBufferPointer {
  /// Whether these bytes are `text`'s UTF-8 (a literal: no `String` made).
  fileprivate func spells(_ text: StaticString) -> Bool {
    count == text.utf8CodeUnitCount && memcmp(baseAddress!, text.utf8Start, count) == 0
  }
}
