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
  /// `"type":"…"` and each field's `"name":`, one after another.
  private let text: [UInt8]
  /// The members in the order they are written (by name, byte by byte).
  private let members: [Member]

  /// One member: its run in `text`, and for a field (not `type`) its value's offset in the
  /// payload and how it is written.
  private struct Member: Sendable {
    let key: Range<Int>
    let value: (offset: Int, writing: EventValueWriting)?
  }

  /// `type`: the event's `type`; `fields`: each field's name, offset in the payload and
  /// writing, in declaration order.
  init<Event>(
    _: Event.Type, type: String, fields: [(name: String, offset: Int, writing: EventValueWriting)]
  ) {
    metadata = UInt(bitPattern: unsafeBitCast(Event.self, to: UnsafeRawPointer.self))
    size = MemoryLayout<Event>.size
    alignment = MemoryLayout<Event>.alignment
    let named: [(String, (offset: Int, writing: EventValueWriting)?)] =
      [("type", nil)] + fields.map { ($0.name, ($0.offset, $0.writing)) }
    var text: [UInt8] = []
    members = named.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }.map { name, value in
      var run = JSONWriter()
      run.key(name)
      if value == nil { run.string(type) }
      text += run.bytes
      return Member(key: text.count - run.bytes.count..<text.count, value: value)
    }
    self.text = text
  }

  /// Appends the JSON of the event at `event`, an event of this type; an optional field's nil
  /// is left out.
  func write(at event: UnsafeRawPointer, into bytes: inout [UInt8]) throws {
    try withUnsafeTemporaryAllocation(byteCount: size, alignment: alignment) { copy in
      let payload = copy.baseAddress!
      payload.copyMemory(from: event, byteCount: size)
      EnumCases.projectPayload(at: payload, metadata: UnsafeRawPointer(bitPattern: metadata)!)
      try JSONWriter.appending(to: &bytes) { json in
        json.byte(UInt8(ascii: "{"))
        var first = true
        for member in members {
          let start = json.bytes.count
          if !first { json.byte(UInt8(ascii: ",")) }
          json.raw(text[member.key])
          if let (offset, writing) = member.value,
            try !writing.write(UnsafeRawPointer(payload + offset), to: &json)
          {
            json.bytes.removeSubrange(start...)  // an optional field's nil: left out
          } else {
            first = false
          }
        }
        json.byte(UInt8(ascii: "}"))
      }
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
