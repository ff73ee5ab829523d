import Foundation

/// Encodes a stored state as compact JSON with sorted keys in one pass over the value: the text
/// `JSONEncoder` (`.sortedKeys`) writes for JSON's own types, at a fraction of its cost (it runs
/// for every stored change). A value holding a type that `JSONEncoder` treats by a strategy
/// (`Date`, `Data`, `URL`, `Decimal`) is encoded by `JSONEncoder` itself, so the stored text never
/// depends on which encoder wrote it.
enum StoredJSON {
  static func encode(_ value: some Encodable) throws -> Data {
    let root = Slot()
    do {
      try put(value, into: root, path: [])
    } catch is NeedsFoundation {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      return try encoder.encode(value)
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(128)
    root.write(into: &bytes)
    return Data(bytes)
  }

  /// Thrown on meeting a type only `JSONEncoder`'s strategies know how to write.
  struct NeedsFoundation: Error {}

  fileprivate static func put<Value: Encodable>(
    _ value: Value, into slot: Slot, path: [any CodingKey]
  ) throws {
    // Types compared by identity (a pointer comparison), not by dynamic casts of the value:
    // this runs for every value of every stored state.
    let type = Value.self
    if type == String.self {
      slot.content = .text(unsafeBitCast(value, to: String.self))
    } else if type == Int.self {
      slot.content = integer(unsafeBitCast(value, to: Int.self))
    } else if type == Bool.self {
      slot.content = .raw(Array((unsafeBitCast(value, to: Bool.self) ? "true" : "false").utf8))
    } else if type == Double.self {
      slot.content = .raw(try digits(unsafeBitCast(value, to: Double.self), path))
    } else if type == Date.self || type == Data.self || type == URL.self || type == Decimal.self {
      throw NeedsFoundation()
    } else {
      try value.encode(to: SlotEncoder(slot: slot, codingPath: path))
    }
  }

  /// A finite floating-point number as `JSONEncoder` writes it: Swift's shortest text that reads
  /// back exactly, less a final ".0".
  fileprivate static func digits<F: BinaryFloatingPoint & LosslessStringConvertible>(
    _ value: F, _ path: [any CodingKey]
  ) throws -> [UInt8] {
    guard value.isFinite else {
      throw EncodingError.invalidValue(
        value,
        .init(codingPath: path, debugDescription: "Unable to encode \(value) directly in JSON."))
    }
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    return Array(text.utf8)
  }

  fileprivate static func integer(_ value: some BinaryInteger) -> Slot.Content {
    if let exact = Int64(exactly: value) { return .integer(exact) }
    return .raw(Array(String(value).utf8))
  }
}

/// A value being built: containers fill slots, written out once complete (object members then
/// sorted by key).
private final class Slot {
  enum Content {
    case empty
    case integer(Int64)
    case raw([UInt8])
    case text(String)
    /// Members in the order they were put; sorted when written. States have few members, so
    /// a list beats a dictionary here.
    case object([(key: String, slot: Slot)])
    case array([Slot])
  }
  var content = Content.empty

  func member(_ key: String) -> Slot {
    let child = Slot()
    if case .object(var members) = content {
      content = .empty  // keeps `members` uniquely referenced: no copy
      if let index = members.firstIndex(where: { $0.key == key }) {
        members[index].slot = child
      } else {
        members.append((key, child))
      }
      content = .object(members)
    } else {
      content = .object([(key, child)])
    }
    return child
  }

  func append() -> Slot {
    let child = Slot()
    if case .array(var elements) = content {
      content = .empty
      elements.append(child)
      content = .array(elements)
    } else {
      content = .array([child])
    }
    return child
  }

  var count: Int {
    if case .array(let elements) = content { return elements.count }
    return 0
  }

  func makeObject() { if case .object = content {} else { content = .object([]) } }
  func makeArray() { if case .array = content {} else { content = .array([]) } }

  func write(into bytes: inout [UInt8]) {
    switch content {
    case .empty: bytes += [0x7B, 0x7D]  // {}: a container nothing was put in
    case .integer(let value): Self.digits(value, into: &bytes)
    case .raw(let raw): bytes += raw
    case .text(let text): Self.quote(text, into: &bytes)
    case .array(let elements):
      bytes.append(0x5B)
      for (index, element) in elements.enumerated() {
        if index > 0 { bytes.append(0x2C) }
        element.write(into: &bytes)
      }
      bytes.append(0x5D)
    case .object(let members):
      bytes.append(0x7B)
      var first = true
      // Sorted by code points, as JSONEncoder's `.sortedKeys` does for plain keys; most types
      // encode their keys in that order already.
      let inOrder = zip(members, members.dropFirst()).allSatisfy { $0.key < $1.key }
      for member in inOrder ? members : members.sorted(by: { $0.key < $1.key }) {
        if !first { bytes.append(0x2C) }
        first = false
        Self.quote(member.key, into: &bytes)
        bytes.append(0x3A)
        member.slot.write(into: &bytes)
      }
      bytes.append(0x7D)
    }
  }

  /// The decimal digits of `value`, written in place (no intermediate string).
  static func digits(_ value: Int64, into bytes: inout [UInt8]) {
    if value < 0 { bytes.append(0x2D) }
    var magnitude = value.magnitude
    var reversed:
      (
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
      ) = (
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
      )
    var count = 0
    withUnsafeMutableBytes(of: &reversed) { buffer in
      repeat {
        buffer[count] = 0x30 + UInt8(magnitude % 10)
        magnitude /= 10
        count += 1
      } while magnitude > 0
      for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
    }
  }

  /// A JSON string as `JSONEncoder` writes it: `"`, `\` and `/` escaped, control characters as
  /// `\n`-style or `\u00XX` escapes, everything else as UTF-8.
  static func quote(_ text: String, into bytes: inout [UInt8]) {
    bytes.append(0x22)
    for byte in text.utf8 {
      switch byte {
      case 0x22: bytes += [0x5C, 0x22]
      case 0x5C: bytes += [0x5C, 0x5C]
      case 0x2F: bytes += [0x5C, 0x2F]
      case 0x0A: bytes += [0x5C, 0x6E]
      case 0x0D: bytes += [0x5C, 0x72]
      case 0x09: bytes += [0x5C, 0x74]
      case 0x08: bytes += [0x5C, 0x62]
      case 0x0C: bytes += [0x5C, 0x66]
      case ..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        bytes += [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      default: bytes.append(byte)
      }
    }
    bytes.append(0x22)
  }
}

private struct IndexKey: CodingKey {
  let intValue: Int?
  let stringValue: String
  init(_ index: Int) {
    intValue = index
    stringValue = "Index \(index)"
  }
  init?(stringValue: String) { return nil }
  init?(intValue: Int) { self.init(intValue) }
}

private struct SlotEncoder: Encoder {
  let slot: Slot
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    slot.makeObject()
    return KeyedEncodingContainer(KeyedSlots<Key>(slot: slot, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    slot.makeArray()
    return UnkeyedSlots(slot: slot, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleSlot(slot: slot, codingPath: codingPath)
  }
}

private struct KeyedSlots<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let slot: Slot
  let codingPath: [any CodingKey]

  private func set(_ content: Slot.Content, _ key: Key) {
    slot.member(key.stringValue).content = content
  }

  mutating func encodeNil(forKey key: Key) throws { set(.raw(Array("null".utf8)), key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws {
    set(.raw(Array((value ? "true" : "false").utf8)), key)
  }
  mutating func encode(_ value: String, forKey key: Key) throws { set(.text(value), key) }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    set(.raw(try StoredJSON.digits(value, codingPath + [key])), key)
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    set(.raw(try StoredJSON.digits(value, codingPath + [key])), key)
  }
  mutating func encode(_ value: Int, forKey key: Key) throws { set(StoredJSON.integer(value), key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws {
    set(StoredJSON.integer(value), key)
  }
  mutating func encode(_ value: Int16, forKey key: Key) throws {
    set(StoredJSON.integer(value), key)
  }
  mutating func encode(_ value: Int32, forKey key: Key) throws {
    set(StoredJSON.integer(value), key)
  }
  mutating func encode(_ value: Int64, forKey key: Key) throws {
    set(StoredJSON.integer(value), key)
  }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    set(StoredJSON.integer(value), key)
  }
  mutating func encode(_ value: UInt8, forKey key: Key) throws {
    set(StoredJSON.integer(value), key)
  }
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    set(StoredJSON.integer(value), key)
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    set(StoredJSON.integer(value), key)
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    set(StoredJSON.integer(value), key)
  }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try StoredJSON.put(value, into: slot.member(key.stringValue), path: codingPath + [key])
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let child = slot.member(key.stringValue)
    child.makeObject()
    return KeyedEncodingContainer(
      KeyedSlots<NestedKey>(slot: child, codingPath: codingPath + [key]))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let child = slot.member(key.stringValue)
    child.makeArray()
    return UnkeyedSlots(slot: child, codingPath: codingPath + [key])
  }

  mutating func superEncoder() -> any Encoder {
    SlotEncoder(slot: slot.member("super"), codingPath: codingPath)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    SlotEncoder(slot: slot.member(key.stringValue), codingPath: codingPath + [key])
  }
}

private struct UnkeyedSlots: UnkeyedEncodingContainer {
  let slot: Slot
  let codingPath: [any CodingKey]
  var count: Int { slot.count }

  private func add(_ content: Slot.Content) { slot.append().content = content }
  private var nextPath: [any CodingKey] { codingPath + [IndexKey(count)] }

  mutating func encodeNil() throws { add(.raw(Array("null".utf8))) }
  mutating func encode(_ value: Bool) throws { add(.raw(Array((value ? "true" : "false").utf8))) }
  mutating func encode(_ value: String) throws { add(.text(value)) }
  mutating func encode(_ value: Double) throws { add(.raw(try StoredJSON.digits(value, nextPath))) }
  mutating func encode(_ value: Float) throws { add(.raw(try StoredJSON.digits(value, nextPath))) }
  mutating func encode(_ value: Int) throws { add(StoredJSON.integer(value)) }
  mutating func encode(_ value: Int8) throws { add(StoredJSON.integer(value)) }
  mutating func encode(_ value: Int16) throws { add(StoredJSON.integer(value)) }
  mutating func encode(_ value: Int32) throws { add(StoredJSON.integer(value)) }
  mutating func encode(_ value: Int64) throws { add(StoredJSON.integer(value)) }
  mutating func encode(_ value: UInt) throws { add(StoredJSON.integer(value)) }
  mutating func encode(_ value: UInt8) throws { add(StoredJSON.integer(value)) }
  mutating func encode(_ value: UInt16) throws { add(StoredJSON.integer(value)) }
  mutating func encode(_ value: UInt32) throws { add(StoredJSON.integer(value)) }
  mutating func encode(_ value: UInt64) throws { add(StoredJSON.integer(value)) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    let path = nextPath
    try StoredJSON.put(value, into: slot.append(), path: path)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let path = nextPath
    let child = slot.append()
    child.makeObject()
    return KeyedEncodingContainer(KeyedSlots<NestedKey>(slot: child, codingPath: path))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let path = nextPath
    let child = slot.append()
    child.makeArray()
    return UnkeyedSlots(slot: child, codingPath: path)
  }

  mutating func superEncoder() -> any Encoder {
    let path = nextPath
    return SlotEncoder(slot: slot.append(), codingPath: path)
  }
}

private struct SingleSlot: SingleValueEncodingContainer {
  let slot: Slot
  let codingPath: [any CodingKey]

  mutating func encodeNil() throws { slot.content = .raw(Array("null".utf8)) }
  mutating func encode(_ value: Bool) throws {
    slot.content = .raw(Array((value ? "true" : "false").utf8))
  }
  mutating func encode(_ value: String) throws { slot.content = .text(value) }
  mutating func encode(_ value: Double) throws {
    slot.content = .raw(try StoredJSON.digits(value, codingPath))
  }
  mutating func encode(_ value: Float) throws {
    slot.content = .raw(try StoredJSON.digits(value, codingPath))
  }
  mutating func encode(_ value: Int) throws { slot.content = StoredJSON.integer(value) }
  mutating func encode(_ value: Int8) throws { slot.content = StoredJSON.integer(value) }
  mutating func encode(_ value: Int16) throws { slot.content = StoredJSON.integer(value) }
  mutating func encode(_ value: Int32) throws { slot.content = StoredJSON.integer(value) }
  mutating func encode(_ value: Int64) throws { slot.content = StoredJSON.integer(value) }
  mutating func encode(_ value: UInt) throws { slot.content = StoredJSON.integer(value) }
  mutating func encode(_ value: UInt8) throws { slot.content = StoredJSON.integer(value) }
  mutating func encode(_ value: UInt16) throws { slot.content = StoredJSON.integer(value) }
  mutating func encode(_ value: UInt32) throws { slot.content = StoredJSON.integer(value) }
  mutating func encode(_ value: UInt64) throws { slot.content = StoredJSON.integer(value) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    try StoredJSON.put(value, into: slot, path: codingPath)
  }
}
