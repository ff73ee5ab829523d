import Wire

/// Decodes a `Decodable` value straight from Wire's parsed ``JSON`` tree: a state sent by a
/// client (`restore`) is read from the value already parsed, never serialized and parsed again.
///
/// ```swift
/// let state = try JSONValueDecoder.decode(CounterState.self, from: ["count": 5])
/// ```
/// Errors are `DecodingError`s whose description names the member's path and the type wanted.
enum JSONValueDecoder {
  static func decode<Value: Decodable>(_ type: Value.Type, from json: JSON) throws -> Value {
    try Value(from: ValueDecoder(json, path: []))
  }
}

private struct AnyKey: CodingKey {
  let stringValue: String
  let intValue: Int?
  init(stringValue: String) {
    self.stringValue = stringValue
    intValue = nil
  }
  init(intValue: Int) {
    stringValue = String(intValue)
    self.intValue = intValue
  }
}

private struct ValueDecoder: Decoder {
  let json: JSON
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(_ json: JSON, path: [any CodingKey]) {
    self.json = json
    codingPath = path
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .object(let object) = json else {
      throw mismatch(JSONObject.self, json, codingPath)
    }
    return KeyedDecodingContainer(Keyed<Key>(object: object, codingPath: codingPath))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let elements) = json else { throw mismatch([JSON].self, json, codingPath) }
    return Unkeyed(elements: elements, codingPath: codingPath)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    Single(json: json, codingPath: codingPath)
  }
}

private func mismatch(_ type: Any.Type, _ json: JSON, _ path: [any CodingKey]) -> DecodingError {
  DecodingError.typeMismatch(
    type,
    .init(codingPath: path, debugDescription: "expected \(jsonName(type)), got \(json.typeName)"))
}

/// What a Swift type is in JSON, for messages: `an integer`, `a string`, ….
private func jsonName(_ type: Any.Type) -> String {
  switch type {
  case is any FixedWidthInteger.Type: "an integer"
  case is Double.Type, is Float.Type: "a number"
  case is String.Type: "a string"
  case is Bool.Type: "a boolean"
  case is JSONObject.Type: "an object"
  case is [JSON].Type: "an array"
  default: "\(type)"
  }
}

/// Reads a scalar of the wanted type, exactly: an integer type takes only an integer in range.
private func scalar<T: Decodable>(
  _ type: T.Type, _ json: JSON, _ path: [any CodingKey]
) throws
  -> T
{
  switch json {
  case .bool(let flag): if let value = flag as? T { return value }
  case .string(let text): if let value = text as? T { return value }
  case .integer(let number):
    if let value = try integer(type, number, path) { return value }
    if T.self == Double.self, let value = Double(number) as? T { return value }
    if T.self == Float.self, let value = Float(number) as? T { return value }
  case .number(let number):
    if T.self == Double.self, let value = number as? T { return value }
    if T.self == Float.self, let value = Float(number) as? T { return value }
  default: break
  }
  if json.isNull {
    throw DecodingError.valueNotFound(
      type, .init(codingPath: path, debugDescription: "expected \(jsonName(type)), got null"))
  }
  throw mismatch(type, json, path)
}

private func integer<T>(_ type: T.Type, _ number: Int64, _ path: [any CodingKey]) throws -> T? {
  func exactly<I: FixedWidthInteger>(_: I.Type) throws -> T? {
    guard let value = I(exactly: number) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: path, debugDescription: "\(number) does not fit in \(I.self)"))
    }
    return value as? T
  }
  switch type {
  case is Int.Type: return try exactly(Int.self)
  case is Int64.Type: return try exactly(Int64.self)
  case is Int32.Type: return try exactly(Int32.self)
  case is Int16.Type: return try exactly(Int16.self)
  case is Int8.Type: return try exactly(Int8.self)
  case is UInt.Type: return try exactly(UInt.self)
  case is UInt64.Type: return try exactly(UInt64.self)
  case is UInt32.Type: return try exactly(UInt32.self)
  case is UInt16.Type: return try exactly(UInt16.self)
  case is UInt8.Type: return try exactly(UInt8.self)
  default: return nil
  }
}

private func value<T: Decodable>(_ type: T.Type, _ json: JSON, _ path: [any CodingKey]) throws -> T
{
  switch type {
  case is Bool.Type, is String.Type, is Double.Type, is Float.Type, is Int.Type, is Int64.Type,
    is Int32.Type, is Int16.Type, is Int8.Type, is UInt.Type, is UInt64.Type, is UInt32.Type,
    is UInt16.Type, is UInt8.Type:
    return try scalar(type, json, path)
  default:
    return try T(from: ValueDecoder(json, path: path))
  }
}

private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let object: JSONObject
  let codingPath: [any CodingKey]

  var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }
  func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

  private func member(_ key: Key) throws -> JSON {
    guard let json = object[key.stringValue] else {
      throw DecodingError.keyNotFound(
        key, .init(codingPath: codingPath, debugDescription: "no member '\(key.stringValue)'"))
    }
    return json
  }

  func decodeNil(forKey key: Key) throws -> Bool { try member(key).isNull }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try value(type, try member(key), codingPath + [key])
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try ValueDecoder(try member(key), path: codingPath + [key]).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try ValueDecoder(try member(key), path: codingPath + [key]).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    ValueDecoder(object["super"] ?? .null, path: codingPath)
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    ValueDecoder(object[key.stringValue] ?? .null, path: codingPath + [key])
  }
}

private struct Unkeyed: UnkeyedDecodingContainer {
  let elements: [JSON]
  let codingPath: [any CodingKey]
  var currentIndex = 0

  init(elements: [JSON], codingPath: [any CodingKey]) {
    self.elements = elements
    self.codingPath = codingPath
  }

  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }

  private mutating func next() throws -> (JSON, [any CodingKey]) {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        JSON.self,
        .init(codingPath: codingPath, debugDescription: "the array has only \(elements.count)"))
    }
    defer { currentIndex += 1 }
    return (elements[currentIndex], codingPath + [AnyKey(intValue: currentIndex)])
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd, elements[currentIndex].isNull else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let (json, path) = try next()
    return try value(type, json, path)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    let (json, path) = try next()
    return try ValueDecoder(json, path: path).container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let (json, path) = try next()
    return try ValueDecoder(json, path: path).unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder {
    let (json, path) = try next()
    return ValueDecoder(json, path: path)
  }
}

private struct Single: SingleValueDecodingContainer {
  let json: JSON
  let codingPath: [any CodingKey]

  func decodeNil() -> Bool { json.isNull }
  func decode<T: Decodable>(_ type: T.Type) throws -> T { try value(type, json, codingPath) }
}
