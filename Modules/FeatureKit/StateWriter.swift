import WireJSON

/// How a state's fields are written, prepared once by its ``StateDeclaration``, in types that
/// do not depend on the state's: writing a state runs no generic code and, for a field that is
/// a stored `Int`, `Int64`, `Bool`, `String` or `Double`, no closure, no key path and no
/// existential either: its value is read at its offset and written by a `switch`.
///
/// The members' keys are one prepared byte run each, `,"name":` (the first one `{"name":`),
/// in one buffer. A state whose fields are all integers and booleans (the counter's
/// `{"count":N}`) is written in one piece, straight into the buffer's spare capacity.
struct StateWriter: Sendable {
  /// Every member's key run, one after another, in the order they are written.
  private let keys: [UInt8]
  private let members: [Member]
  /// The members again when every field is an integer or a boolean, so written in one piece:
  /// in a type with no reference in it (nothing to retain or release in the loop), with the
  /// most bytes the whole object can take. Nil otherwise.
  private let fixed: (members: [FixedMember], bound: Int)?

  /// One member: where its key run is in `keys`, and how its value is written.
  private struct Member: Sendable {
    let key: Range<Int>
    let value: FieldWriting
  }

  /// One member of an object written in one piece: its key run, and its value's kind and
  /// offset in the state.
  private struct FixedMember: Sendable {
    let keyStart: Int
    let keyCount: Int
    let kind: Kind
    let offset: Int

    enum Kind: Sendable {
      case integer, integer64, boolean
    }

    init?(key: Range<Int>, _ value: FieldWriting) {
      (keyStart, keyCount) = (key.lowerBound, key.count)
      switch value {
      case .integer(let offset): (kind, self.offset) = (.integer, offset)
      case .integer64(let offset): (kind, self.offset) = (.integer64, offset)
      case .boolean(let offset): (kind, self.offset) = (.boolean, offset)
      case .string, .number, .optional, .written: return nil
      }
    }

    /// The most bytes the value takes.
    var bound: Int { kind == .boolean ? 5 : 20 }
  }

  /// `fields`: each member's name and how its value is written, sorted as they are written.
  init(_ fields: [(name: String, value: FieldWriting)]) {
    var keys: [UInt8] = []
    var members: [Member] = []
    for (index, field) in fields.enumerated() {
      var key = JSONWriter()
      key.byte(UInt8(ascii: index == 0 ? "{" : ","))
      key.key(field.name)
      members.append(Member(key: keys.count..<keys.count + key.bytes.count, value: field.value))
      keys += key.bytes
    }
    self.keys = keys
    self.members = members
    let fixed = members.compactMap { FixedMember(key: $0.key, $0.value) }
    if !members.isEmpty, fixed.count == members.count {
      self.fixed = (fixed, fixed.reduce(1) { $0 + $1.keyCount + $1.bound })  // 1: the `}`
    } else {
      self.fixed = nil
    }
  }

  /// Appends the JSON object of the state at `state` to `bytes`.
  func write(at state: UnsafeRawPointer, into bytes: inout [UInt8]) throws {
    if let fixed {
      Self.write(state, fixed.members, keys, upTo: fixed.bound, into: &bytes)
    } else {
      try JSONWriter.appending(to: &bytes) { json in try write(state, to: &json) }
    }
  }

  /// Every member, integers and booleans only, in one append of at most `bound` bytes.
  private static func write(
    _ state: UnsafeRawPointer, _ members: [FixedMember], _ keys: [UInt8], upTo bound: Int,
    into bytes: inout [UInt8]
  ) {
    keys.withUnsafeBufferPointer { keys in
      members.withUnsafeBufferPointer { members in
        bytes.append(upTo: bound) { start in
          var end = start
          for member in members {
            end.update(from: keys.baseAddress! + member.keyStart, count: member.keyCount)
            end += member.keyCount
            let value = state + member.offset
            switch member.kind {
            case .integer: end = writeDecimal(Int64(value.load(as: Int.self)), at: end)
            case .integer64: end = writeDecimal(value.load(as: Int64.self), at: end)
            case .boolean: end = writeBoolean(value.load(as: Bool.self), at: end)
            }
          }
          end.pointee = UInt8(ascii: "}")
          return end + 1 - start
        }
      }
    }
  }

  /// Every member, one after another; an optional field's nil is left out.
  private func write(_ state: UnsafeRawPointer, to json: inout JSONWriter) throws {
    try json.object(count: members.count) { index, json in
      json.raw(keys[members[index].key.dropFirst()])  // without its `{` or `,`
      return try members[index].value.write(state, to: &json)
    }
  }
}

/// How one field's value is written from the state at an address: a stored property of a type
/// written here, at its offset in the state, or the field's own closure.
enum FieldWriting: Sendable {
  case integer(offset: Int)
  case integer64(offset: Int)
  case boolean(offset: Int)
  case string(offset: Int)
  case number(offset: Int)
  /// An optional of one of the types above, left out when nil.
  case optional(offset: Int, Wrapped)
  /// Writes the value after its key; false when it is left out (an optional field's nil).
  case written(@Sendable (UnsafeRawPointer, inout JSONWriter) throws -> Bool)

  /// The stored property at `offset` when it is one of the types written here (`Value`, the
  /// property's type); nil otherwise.
  static func stored<Value>(_: Value.Type, at offset: Int?) -> FieldWriting? {
    guard let offset else { return nil }
    switch Value.self {
    case is Int.Type: return .integer(offset: offset)
    case is Int64.Type: return .integer64(offset: offset)
    case is Bool.Type: return .boolean(offset: offset)
    case is String.Type: return .string(offset: offset)
    case is Double.Type: return .number(offset: offset)
    default: return nil
    }
  }

  /// The type an optional stored property wraps.
  enum Wrapped: Sendable {
    case integer, integer64, boolean, string, number
  }

  /// The optional stored property at `offset`, left out when nil, when it wraps one of the
  /// types written here (`Value`, the type it wraps); nil otherwise.
  static func storedOptional<Value>(_: Value.Type, at offset: Int?) -> FieldWriting? {
    guard let offset else { return nil }
    switch Value.self {
    case is Int.Type: return .optional(offset: offset, .integer)
    case is Int64.Type: return .optional(offset: offset, .integer64)
    case is Bool.Type: return .optional(offset: offset, .boolean)
    case is String.Type: return .optional(offset: offset, .string)
    case is Double.Type: return .optional(offset: offset, .number)
    default: return nil
    }
  }

  /// Writes the value of the state at `state`, as the value's own ``JSONWritable`` writing
  /// does; false when it is left out.
  func write(_ state: UnsafeRawPointer, to json: inout JSONWriter) throws -> Bool {
    switch self {
    case .integer(let offset): json.integer(Int64(state.load(fromByteOffset: offset, as: Int.self)))
    case .integer64(let offset): json.integer(state.load(fromByteOffset: offset, as: Int64.self))
    case .boolean(let offset): json.bool(state.load(fromByteOffset: offset, as: Bool.self))
    case .string(let offset):
      json.string(state.load(fromByteOffset: offset, as: String.self))
    case .number(let offset): try json.finite(state.load(fromByteOffset: offset, as: Double.self))
    case .optional(let offset, let wrapped):
      return try Self.write(state + offset, wrapped, to: &json)
    case .written(let write): return try write(state, &json)
    }
    return true
  }

  /// Writes the optional at `value`, wrapping a `wrapped`; false when it is nil.
  private static func write(
    _ value: UnsafeRawPointer, _ wrapped: Wrapped, to json: inout JSONWriter
  ) throws -> Bool {
    switch wrapped {
    case .integer:
      guard let value = value.load(as: Int?.self) else { return false }
      json.integer(Int64(value))
    case .integer64:
      guard let value = value.load(as: Int64?.self) else { return false }
      json.integer(value)
    case .boolean:
      guard let value = value.load(as: Bool?.self) else { return false }
      json.bool(value)
    case .string:
      guard let value = value.load(as: String?.self) else { return false }
      json.string(value)
    case .number:
      guard let value = value.load(as: Double?.self) else { return false }
      try json.finite(value)
    }
    return true
  }
}
