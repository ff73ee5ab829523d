import Foundation

/// An `Encodable` value captured as a tree of JSON's own types: what a state's `encode(to:)`
/// put, before any text is written. The one `Encoder` of the package; each JSON writer walks
/// the tree its own way (``StoredJSON`` for storage, the daemon's `StateEncoder` for the wire).
///
/// Capturing compares leaf types by identity (a pointer comparison), not by dynamic casts: it
/// runs for every value of every state. It refuses a non-finite number (as `JSONEncoder`
/// does), and a type whose JSON form depends on an encoder's strategy (``NeedsStrategy``).
package final class EncodedValue {
  package enum Content {
    /// A container nothing was put in: written `{}`.
    case empty
    case null
    case bool(Bool)
    case integer(Int64)
    /// An unsigned integer above `Int64.max`.
    case unsigned(UInt64)
    case double(Double)
    case float(Float)
    case string(String)
    /// Members in the order they were put (a key put again keeps its place); writers sort
    /// them. States have few members, so a list beats a dictionary here.
    case object([(key: String, value: EncodedValue)])
    case array([EncodedValue])
  }

  /// A `Date`, `Data`, `URL` or `Decimal`: `JSONEncoder` writes them by a strategy, so they
  /// have no single JSON form.
  package struct NeedsStrategy: Error {
    /// The type's full name, for messages.
    package let type: String
  }

  package var content = Content.empty

  /// The tree of `value`.
  package static func capture(_ value: some Encodable) throws -> EncodedValue {
    let root = EncodedValue()
    try root.put(value, path: [])
    return root
  }

  fileprivate func put<Value: Encodable>(_ value: Value, path: [any CodingKey]) throws {
    let type = Value.self
    if type == String.self {
      content = .string(unsafeBitCast(value, to: String.self))
    } else if type == Int.self {
      content = .integer(Int64(unsafeBitCast(value, to: Int.self)))
    } else if type == Int64.self {
      content = .integer(unsafeBitCast(value, to: Int64.self))
    } else if type == Bool.self {
      content = .bool(unsafeBitCast(value, to: Bool.self))
    } else if type == Double.self {
      content = try Self.double(unsafeBitCast(value, to: Double.self), path)
    } else if type == Date.self || type == Data.self || type == URL.self || type == Decimal.self {
      throw NeedsStrategy(type: String(reflecting: type))
    } else {
      try value.encode(to: ValueEncoder(value: self, codingPath: path))
    }
  }

  fileprivate static func double(_ value: Double, _ path: [any CodingKey]) throws -> Content {
    guard value.isFinite else { throw nonFinite(value, path) }
    return .double(value)
  }

  fileprivate static func float(_ value: Float, _ path: [any CodingKey]) throws -> Content {
    guard value.isFinite else { throw nonFinite(value, path) }
    return .float(value)
  }

  private static func nonFinite(_ value: Any, _ path: [any CodingKey]) -> EncodingError {
    EncodingError.invalidValue(
      value,
      .init(codingPath: path, debugDescription: "Unable to encode \(value) directly in JSON."))
  }

  fileprivate static func integer(_ value: some FixedWidthInteger) -> Content {
    if let exact = Int64(exactly: value) { return .integer(exact) }
    return .unsigned(UInt64(value))
  }

  fileprivate func member(_ key: String) -> EncodedValue {
    let child = EncodedValue()
    if case .object(var members) = content {
      content = .empty  // keeps `members` uniquely referenced: no copy
      if let index = members.firstIndex(where: { $0.key == key }) {
        members[index].value = child
      } else {
        members.append((key, child))
      }
      content = .object(members)
    } else {
      content = .object([(key, child)])
    }
    return child
  }

  fileprivate func append() -> EncodedValue {
    let child = EncodedValue()
    if case .array(var elements) = content {
      content = .empty
      elements.append(child)
      content = .array(elements)
    } else {
      content = .array([child])
    }
    return child
  }

  fileprivate var count: Int {
    if case .array(let elements) = content { return elements.count }
    return 0
  }

  fileprivate func makeObject() { if case .object = content {} else { content = .object([]) } }
  fileprivate func makeArray() { if case .array = content {} else { content = .array([]) } }
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

private struct ValueEncoder: Encoder {
  let value: EncodedValue
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    value.makeObject()
    return KeyedEncodingContainer(KeyedValues<Key>(value: value, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    value.makeArray()
    return UnkeyedValues(value: value, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleValue(value: value, codingPath: codingPath)
  }
}

private struct KeyedValues<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let value: EncodedValue
  let codingPath: [any CodingKey]

  private func set(_ content: EncodedValue.Content, _ key: Key) {
    value.member(key.stringValue).content = content
  }

  mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
  mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    set(try EncodedValue.double(value, codingPath + [key]), key)
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    set(try EncodedValue.float(value, codingPath + [key]), key)
  }
  mutating func encode(_ value: Int, forKey key: Key) throws { set(.integer(Int64(value)), key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { set(.integer(Int64(value)), key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { set(.integer(Int64(value)), key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { set(.integer(Int64(value)), key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { set(.integer(value), key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    set(EncodedValue.integer(value), key)
  }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.integer(Int64(value)), key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    set(.integer(Int64(value)), key)
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    set(.integer(Int64(value)), key)
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    set(EncodedValue.integer(value), key)
  }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try self.value.member(key.stringValue).put(value, path: codingPath + [key])
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let child = value.member(key.stringValue)
    child.makeObject()
    return KeyedEncodingContainer(
      KeyedValues<NestedKey>(value: child, codingPath: codingPath + [key]))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let child = value.member(key.stringValue)
    child.makeArray()
    return UnkeyedValues(value: child, codingPath: codingPath + [key])
  }

  mutating func superEncoder() -> any Encoder {
    ValueEncoder(value: value.member("super"), codingPath: codingPath)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    ValueEncoder(value: value.member(key.stringValue), codingPath: codingPath + [key])
  }
}

private struct UnkeyedValues: UnkeyedEncodingContainer {
  let value: EncodedValue
  let codingPath: [any CodingKey]
  var count: Int { value.count }

  private func add(_ content: EncodedValue.Content) { value.append().content = content }
  private var nextPath: [any CodingKey] { codingPath + [IndexKey(count)] }

  mutating func encodeNil() throws { add(.null) }
  mutating func encode(_ value: Bool) throws { add(.bool(value)) }
  mutating func encode(_ value: String) throws { add(.string(value)) }
  mutating func encode(_ value: Double) throws { add(try EncodedValue.double(value, nextPath)) }
  mutating func encode(_ value: Float) throws { add(try EncodedValue.float(value, nextPath)) }
  mutating func encode(_ value: Int) throws { add(.integer(Int64(value))) }
  mutating func encode(_ value: Int8) throws { add(.integer(Int64(value))) }
  mutating func encode(_ value: Int16) throws { add(.integer(Int64(value))) }
  mutating func encode(_ value: Int32) throws { add(.integer(Int64(value))) }
  mutating func encode(_ value: Int64) throws { add(.integer(value)) }
  mutating func encode(_ value: UInt) throws { add(EncodedValue.integer(value)) }
  mutating func encode(_ value: UInt8) throws { add(.integer(Int64(value))) }
  mutating func encode(_ value: UInt16) throws { add(.integer(Int64(value))) }
  mutating func encode(_ value: UInt32) throws { add(.integer(Int64(value))) }
  mutating func encode(_ value: UInt64) throws { add(EncodedValue.integer(value)) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    let path = nextPath
    try self.value.append().put(value, path: path)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let path = nextPath
    let child = value.append()
    child.makeObject()
    return KeyedEncodingContainer(KeyedValues<NestedKey>(value: child, codingPath: path))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let path = nextPath
    let child = value.append()
    child.makeArray()
    return UnkeyedValues(value: child, codingPath: path)
  }

  mutating func superEncoder() -> any Encoder {
    let path = nextPath
    return ValueEncoder(value: value.append(), codingPath: path)
  }
}

private struct SingleValue: SingleValueEncodingContainer {
  let value: EncodedValue
  let codingPath: [any CodingKey]

  private func set(_ content: EncodedValue.Content) { value.content = content }

  mutating func encodeNil() throws { set(.null) }
  mutating func encode(_ value: Bool) throws { set(.bool(value)) }
  mutating func encode(_ value: String) throws { set(.string(value)) }
  mutating func encode(_ value: Double) throws { set(try EncodedValue.double(value, codingPath)) }
  mutating func encode(_ value: Float) throws { set(try EncodedValue.float(value, codingPath)) }
  mutating func encode(_ value: Int) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: Int8) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: Int16) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: Int32) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: Int64) throws { set(.integer(value)) }
  mutating func encode(_ value: UInt) throws { set(EncodedValue.integer(value)) }
  mutating func encode(_ value: UInt8) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: UInt16) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: UInt32) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: UInt64) throws { set(EncodedValue.integer(value)) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    try self.value.put(value, path: codingPath)
  }
}
