import Foundation
import Wire

/// Encodes an `Encodable` state straight into Wire's ``JSON``: the one encoder of every state
/// the daemon sends. Its output is what `JSONEncoder` (sorted keys, slashes unescaped) writes
/// and storage keeps, read back by `JSONParser` (a test compares them for every feature). No
/// text is written and parsed again.
///
/// ```swift
/// let json = try StateEncoder.encode(CounterState(count: 3))  // {"count":3}
/// ```
/// Keys are sorted by their UTF-8 bytes (the feature states' keys sort the same way under
/// Foundation's rule; a test compares every feature's output). Integers become `.integer`
/// (`.number` above `Int64.max`, as the parser reads them); a `Double` with an integral value
/// up to 2^53 becomes `.integer`, as `JSONEncoder` writes it without a fraction. Types that
/// `JSONEncoder` treats specially (`Date`, `Data`, `Decimal`, `URL`, …) throw
/// ``Unsupported``: a state holds JSON's own types (store a date as a number or a string).
enum StateEncoder {
  /// A value whose JSON form depends on an encoder's strategy; refused.
  struct Unsupported: Error, CustomStringConvertible {
    let type: String
    var description: String {
      "\(type) has no single JSON form; store it as a number or a string in the state"
    }
  }

  static func encode(_ value: some Encodable) throws -> JSON {
    let root = Node()
    try encodeValue(value, into: root, path: [])
    return root.json
  }

  fileprivate static func encodeValue(
    _ value: some Encodable, into node: Node, path: [any CodingKey]
  ) throws {
    if let json = scalar(value) {
      node.kind = .value(json)
      return
    }
    let type = type(of: value)
    if type == Date.self || type == Data.self || type == Decimal.self || type == URL.self {
      throw Unsupported(type: String(reflecting: type))
    }
    try value.encode(to: NodeEncoder(node: node, codingPath: path))
  }

  /// The common leaf types, without going through their `encode(to:)`. Types are compared by
  /// identity (a pointer comparison), not by dynamic casts: this runs for every value.
  fileprivate static func scalar<Value: Encodable>(_ value: Value) -> JSON? {
    let type = Value.self
    if type == String.self { return .string(unsafeBitCast(value, to: String.self)) }
    if type == Int.self { return .integer(Int64(unsafeBitCast(value, to: Int.self))) }
    if type == Int64.self { return .integer(unsafeBitCast(value, to: Int64.self)) }
    if type == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
    if type == Double.self { return number(unsafeBitCast(value, to: Double.self)) }
    return nil
  }

  fileprivate static func number(_ value: Double) -> JSON {
    // JSONEncoder writes a double as Swift prints it, less a final ".0": an integral value
    // up to 2^53 (except -0.0) comes out without fraction or exponent, which the parser reads
    // as an integer.
    if value.isFinite, value == value.rounded(.towardZero), abs(value) <= 9_007_199_254_740_992,
      !(value == 0 && value.sign == .minus)
    {
      return .integer(Int64(value))
    }
    return .number(value)
  }

  fileprivate static func integer(_ value: some FixedWidthInteger) -> JSON {
    if let exact = Int64(exactly: value) { return .integer(exact) }
    return .number(Double(value))
  }
}

/// A value being built: encoders write into nodes, which become ``JSON`` at the end.
private final class Node {
  enum Kind {
    case empty
    case value(JSON)
    case object([String: Node])
    case array([Node])
  }
  var kind = Kind.empty

  var json: JSON {
    switch kind {
    case .empty: return .object(JSONObject())
    case .value(let json): return json
    case .array(let nodes): return .array(nodes.map(\.json))
    case .object(let members):
      var object = JSONObject()
      for key in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
        object[key] = members[key]!.json
      }
      return .object(object)
    }
  }

  /// The member `key` of this object node, created (replacing a previous one) for writing.
  func member(_ key: String) -> Node {
    let child = Node()
    if case .object(var members) = kind {
      kind = .empty
      members[key] = child
      kind = .object(members)
    } else {
      kind = .object([key: child])
    }
    return child
  }

  /// A new last element of this array node.
  func append() -> Node {
    let child = Node()
    if case .array(var nodes) = kind {
      kind = .empty
      nodes.append(child)
      kind = .array(nodes)
    } else {
      kind = .array([child])
    }
    return child
  }

  var count: Int {
    if case .array(let nodes) = kind { return nodes.count }
    return 0
  }

  func makeObject() {
    if case .object = kind { return }
    kind = .object([:])
  }

  func makeArray() {
    if case .array = kind { return }
    kind = .array([])
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

private struct NodeEncoder: Encoder {
  let node: Node
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    node.makeObject()
    return KeyedEncodingContainer(KeyedNodeContainer<Key>(node: node, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    node.makeArray()
    return UnkeyedNodeContainer(node: node, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleNodeContainer(node: node, codingPath: codingPath)
  }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: Node
  let codingPath: [any CodingKey]

  private func set(_ json: JSON, _ key: Key) { node.member(key.stringValue).kind = .value(json) }

  mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
  mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    try set(SingleNodeContainer.double(value, codingPath + [key]), key)
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    try set(SingleNodeContainer.float(value, codingPath + [key]), key)
  }
  mutating func encode(_ value: Int, forKey key: Key) throws { set(.integer(Int64(value)), key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { set(.integer(Int64(value)), key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { set(.integer(Int64(value)), key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { set(.integer(Int64(value)), key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { set(.integer(value), key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    set(StateEncoder.integer(value), key)
  }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.integer(Int64(value)), key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    set(.integer(Int64(value)), key)
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    set(.integer(Int64(value)), key)
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    set(StateEncoder.integer(value), key)
  }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try StateEncoder.encodeValue(
      value, into: node.member(key.stringValue), path: codingPath + [key])
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let child = node.member(key.stringValue)
    child.makeObject()
    return KeyedEncodingContainer(
      KeyedNodeContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let child = node.member(key.stringValue)
    child.makeArray()
    return UnkeyedNodeContainer(node: child, codingPath: codingPath + [key])
  }

  mutating func superEncoder() -> any Encoder {
    NodeEncoder(node: node.member("super"), codingPath: codingPath)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
  }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
  let node: Node
  let codingPath: [any CodingKey]
  var count: Int { node.count }

  private func add(_ json: JSON) { node.append().kind = .value(json) }
  private var nextPath: [any CodingKey] { codingPath + [IndexKey(count)] }

  mutating func encodeNil() throws { add(.null) }
  mutating func encode(_ value: Bool) throws { add(.bool(value)) }
  mutating func encode(_ value: String) throws { add(.string(value)) }
  mutating func encode(_ value: Double) throws {
    add(try SingleNodeContainer.double(value, nextPath))
  }
  mutating func encode(_ value: Float) throws {
    add(try SingleNodeContainer.float(value, nextPath))
  }
  mutating func encode(_ value: Int) throws { add(.integer(Int64(value))) }
  mutating func encode(_ value: Int8) throws { add(.integer(Int64(value))) }
  mutating func encode(_ value: Int16) throws { add(.integer(Int64(value))) }
  mutating func encode(_ value: Int32) throws { add(.integer(Int64(value))) }
  mutating func encode(_ value: Int64) throws { add(.integer(value)) }
  mutating func encode(_ value: UInt) throws { add(StateEncoder.integer(value)) }
  mutating func encode(_ value: UInt8) throws { add(.integer(Int64(value))) }
  mutating func encode(_ value: UInt16) throws { add(.integer(Int64(value))) }
  mutating func encode(_ value: UInt32) throws { add(.integer(Int64(value))) }
  mutating func encode(_ value: UInt64) throws { add(StateEncoder.integer(value)) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    let path = nextPath
    try StateEncoder.encodeValue(value, into: node.append(), path: path)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let path = nextPath
    let child = node.append()
    child.makeObject()
    return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(node: child, codingPath: path))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let path = nextPath
    let child = node.append()
    child.makeArray()
    return UnkeyedNodeContainer(node: child, codingPath: path)
  }

  mutating func superEncoder() -> any Encoder {
    let path = nextPath
    return NodeEncoder(node: node.append(), codingPath: path)
  }
}

private struct SingleNodeContainer: SingleValueEncodingContainer {
  let node: Node
  let codingPath: [any CodingKey]

  private func set(_ json: JSON) { node.kind = .value(json) }

  static func double(_ value: Double, _ path: [any CodingKey]) throws -> JSON {
    guard value.isFinite else {
      throw EncodingError.invalidValue(
        value,
        .init(codingPath: path, debugDescription: "Unable to encode \(value) directly in JSON."))
    }
    return StateEncoder.number(value)
  }

  static func float(_ value: Float, _ path: [any CodingKey]) throws -> JSON {
    guard value.isFinite else {
      throw EncodingError.invalidValue(
        value,
        .init(codingPath: path, debugDescription: "Unable to encode \(value) directly in JSON."))
    }
    // JSONEncoder writes the float's shortest text, which the parser reads as a double.
    return StateEncoder.number(Double("\(value)") ?? Double(value))
  }

  mutating func encodeNil() throws { set(.null) }
  mutating func encode(_ value: Bool) throws { set(.bool(value)) }
  mutating func encode(_ value: String) throws { set(.string(value)) }
  mutating func encode(_ value: Double) throws { set(try Self.double(value, codingPath)) }
  mutating func encode(_ value: Float) throws { set(try Self.float(value, codingPath)) }
  mutating func encode(_ value: Int) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: Int8) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: Int16) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: Int32) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: Int64) throws { set(.integer(value)) }
  mutating func encode(_ value: UInt) throws { set(StateEncoder.integer(value)) }
  mutating func encode(_ value: UInt8) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: UInt16) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: UInt32) throws { set(.integer(Int64(value))) }
  mutating func encode(_ value: UInt64) throws { set(StateEncoder.integer(value)) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    try StateEncoder.encodeValue(value, into: node, path: codingPath)
  }
}
