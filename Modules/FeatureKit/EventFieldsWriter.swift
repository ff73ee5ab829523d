import WireJSON

/// How an event with fields is written when its case's payload can be read in place (the
/// values its `make` was given, ``PayloadReader``): prepared once by its declared event, in
/// types that do not depend on the event's, so writing it runs no generic code, looks up no
/// generic metadata and never reflects (`{"type":"set","value":5}`).
///
/// The event is copied bit for bit to the stack and its payload projected there by the enum's
/// own value witness (`destructiveProjectEnumData`): nothing is retained or released, the
/// event itself is untouched. Each field's value is then read at its offset in the payload.
struct FieldsWriter: Sendable {
  /// The event enum's metadata, as a bit pattern (a pointer is not `Sendable`).
  private let metadata: UInt
  private let size: Int
  private let alignment: Int
  /// The event's object less its fields' values (its case's ``EventObject``).
  private let object: EventObject
  /// Each field's value: its offset in the payload and how it is written, in declaration order.
  private let values: [(offset: Int, writing: EventValueWriting)]
  /// `"type":"…"` and each field's `"name":`, one after another, in the order they are
  /// written (the object's), for the one-piece writing.
  private let text: [UInt8]
  private let members: [Member]
  /// The most bytes the event's JSON takes when each field's value is of bounded length
  /// (written in one piece); nil otherwise.
  private let bound: Int?

  /// One member: its run in `text`, and for a field (not `type`) its value's offset in the
  /// payload and how it is written.
  private struct Member: Sendable {
    let key: Range<Int>
    let value: (offset: Int, writing: EventValueWriting)?
  }

  /// `object`: the event's object less its fields' values; `values`: each field's offset in
  /// the payload and writing, in declaration order.
  init<Event>(
    _: Event.Type, object: EventObject, values: [(offset: Int, writing: EventValueWriting)]
  ) {
    metadata = UInt(bitPattern: unsafeBitCast(Event.self, to: UnsafeRawPointer.self))
    size = MemoryLayout<Event>.size
    alignment = MemoryLayout<Event>.alignment
    self.object = object
    self.values = values
    var text: [UInt8] = []
    members = object.members.map { key, field in
      text += key
      return Member(key: text.count - key.count..<text.count, value: field.map { values[$0] })
    }
    self.text = text
    var bound: Int? = text.count + members.count + 1  // the keys, a `{` or `,` each, the `}`
    for (_, writing) in values {
      bound = bound.flatMap { bound in writing.bound.map { bound + $0 } }
    }
    self.bound = bound
  }

  /// Appends the JSON of the event at `event`, an event of this type; an optional field's nil
  /// is left out.
  func write(at event: UnsafeRawPointer, into bytes: inout [UInt8]) throws {
    try withUnsafeTemporaryAllocation(byteCount: size, alignment: alignment) { copy in
      let payload = copy.baseAddress!
      payload.copyMemory(from: event, byteCount: size)
      EnumCases.projectPayload(at: payload, metadata: UnsafeRawPointer(bitPattern: metadata)!)
      if let bound {
        writeFixed(UnsafeRawPointer(payload), upTo: bound, into: &bytes)
      } else {
        try JSONWriter.appending(to: &bytes) { json in
          try write(UnsafeRawPointer(payload), to: &json)
        }
      }
    }
  }

  /// Every member, when each field is of bounded length (``EventValueWriting/bound``), in one
  /// append of at most `bound` bytes straight into the buffer's spare capacity.
  private func writeFixed(_ payload: UnsafeRawPointer, upTo bound: Int, into bytes: inout [UInt8]) {
    text.withUnsafeBufferPointer { text in
      bytes.append(upTo: bound) { start in
        start.pointee = UInt8(ascii: "{")
        var end = start + 1
        for member in members {
          let mark = end
          if end != start + 1 {
            end.pointee = UInt8(ascii: ",")
            end += 1
          }
          end.update(from: text.baseAddress! + member.key.lowerBound, count: member.key.count)
          end += member.key.count
          if let (offset, writing) = member.value {
            end = writing.write(payload + offset, at: end) ?? mark  // nil: left out
          }
        }
        end.pointee = UInt8(ascii: "}")
        return end + 1 - start
      }
    }
  }

  /// Every member, one after another, with the writer's own functions.
  private func write(_ payload: UnsafeRawPointer, to json: inout JSONWriter) throws {
    try object.write(to: &json) { index, json in
      try values[index].writing.write(payload + values[index].offset, to: &json)
    }
  }
}

/// How an event field's value is written from where it lies, in code that is not generic: a
/// value of a type written here, as its own ``JSONWritable`` writing does, or the field's own
/// writing.
enum EventValueWriting: Sendable {
  case integer
  case integer64
  case boolean
  case string
  /// An enum of strings (its metadata): each case's quoted raw value, by the case's tag.
  case oneOf(metadata: UInt, names: [[UInt8]])
  /// An `Optional` (its metadata) of a value written as `wrapped`: left out when nil.
  indirect case optional(metadata: UInt, wrapped: EventValueWriting)
  /// The field's own writing of the value at an address; false when it is left out.
  case written(@Sendable (UnsafeRawPointer, inout JSONWriter) throws -> Bool)

  /// How a value of `Value` writes itself (``JSONWritable``) when it is of a type written
  /// here the same way; nil otherwise.
  static func own<Value>(_: Value.Type) -> EventValueWriting? {
    switch Value.self {
    case is Int.Type: .integer
    case is Int64.Type: .integer64
    case is Bool.Type: .boolean
    case is String.Type: .string
    default: nil
    }
  }

  /// The most bytes a value takes, when that is bounded (all but strings and the field's own
  /// writing).
  var bound: Int? {
    switch self {
    case .integer, .integer64: 20
    case .boolean: 5
    case .oneOf(_, let names): names.map(\.count).max() ?? 0
    case .optional(_, let wrapped): wrapped.bound
    case .string, .written: nil
    }
  }

  /// Writes the value at `value` from `end`, when ``bound`` is not nil; returns where it ends,
  /// or nil, having written nothing, when it is left out.
  func write(
    _ value: UnsafeRawPointer, at end: UnsafeMutablePointer<UInt8>
  )
    -> UnsafeMutablePointer<UInt8>?
  {
    switch self {
    case .integer: return writeDecimal(Int64(value.load(as: Int.self)), at: end)
    case .integer64: return writeDecimal(value.load(as: Int64.self), at: end)
    case .boolean: return writeBoolean(value.load(as: Bool.self), at: end)
    case .oneOf(let metadata, let names):
      let tag = EnumCases.tag(at: value, metadata: UnsafeRawPointer(bitPattern: metadata)!)
      return names[tag].withUnsafeBufferPointer { name in
        end.update(from: name.baseAddress!, count: name.count)
        return end + name.count
      }
    case .optional(let metadata, let wrapped):
      guard EnumCases.tag(at: value, metadata: UnsafeRawPointer(bitPattern: metadata)!) == 0
      else { return nil }
      return wrapped.write(value, at: end)
    case .string, .written:
      preconditionFailure("a value of unbounded length written in one piece")
    }
  }

  /// Writes the value at `value`; false, having written nothing, when it is left out.
  func write(_ value: UnsafeRawPointer, to json: inout JSONWriter) throws -> Bool {
    switch self {
    case .integer: json.integer(Int64(value.load(as: Int.self)))
    case .integer64: json.integer(value.load(as: Int64.self))
    case .boolean: json.bool(value.load(as: Bool.self))
    case .string: json.string(value.load(as: String.self))
    case .oneOf(let metadata, let names):
      json.raw(names[EnumCases.tag(at: value, metadata: UnsafeRawPointer(bitPattern: metadata)!)])
    case .optional(let metadata, let wrapped):
      // Tag 0: a value, where the optional lies; 1: nil.
      guard EnumCases.tag(at: value, metadata: UnsafeRawPointer(bitPattern: metadata)!) == 0
      else { return false }
      return try wrapped.write(value, to: &json)
    case .written(let write): return try write(value, &json)
    }
    return true
  }
}
