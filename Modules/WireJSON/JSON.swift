/// A JSON value: the tree that the wire protocol parses into and serializes from.
///
/// Integers are kept apart from other numbers so that ids, sequence numbers and
/// counters round-trip exactly: `JSONParser` yields `.integer` for every number
/// without a fraction or exponent that fits in `Int64`, and `.number` otherwise.
/// The two cases are distinct values (`.integer(1) != .number(1.0)`).
///
/// Objects keep their keys in insertion order (see `JSONObject`), so output is
/// stable and reads the way it was built.
///
/// ```swift
/// let reply: JSON = ["ok": true, "state": ["count": 3], "tags": ["a", "b"]]
/// reply["state"]?["count"]?.intValue  // 3
/// reply.serializedString()            // {"ok":true,"state":{"count":3},"tags":["a","b"]}
/// ```
///
/// The enum is not `indirect`: arrays and objects already store their elements
/// on the heap, so boxing every scalar would only cost allocations.
public enum JSON: Sendable, Hashable {
  case null
  case bool(Bool)
  /// A number written without fraction or exponent that fits in `Int64`.
  case integer(Int64)
  /// Any other number. Never NaN or infinite when produced by `JSONParser`.
  case number(Double)
  case string(String)
  case array([JSON])
  case object(JSONObject)
}

extension JSON {
  /// Wraps an `Int` as `.integer`.
  public init(_ value: Int) { self = .integer(Int64(value)) }

  /// Wraps an `Int64` as `.integer`.
  public init(_ value: Int64) { self = .integer(value) }

  /// Wraps a `Double` as `.number`.
  public init(_ value: Double) { self = .number(value) }

  /// Wraps a `Bool` as `.bool`.
  public init(_ value: Bool) { self = .bool(value) }

  /// Wraps a `String` as `.string`.
  public init(_ value: String) { self = .string(value) }

  /// Wraps an array as `.array`.
  public init(_ value: [JSON]) { self = .array(value) }

  /// Wraps an object as `.object`.
  public init(_ value: JSONObject) { self = .object(value) }

  /// The JSON type name, for error messages: `null`, `boolean`, `number`,
  /// `string`, `array` or `object` (integers are `number` too).
  ///
  /// ```swift
  /// JSON.integer(3).typeName  // "number"
  /// ```
  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .integer, .number: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }
}

extension JSON: CustomStringConvertible {
  /// The compact serialization, e.g. `{"a":[1,2.5,null]}`.
  public var description: String { serializedString() }
}
