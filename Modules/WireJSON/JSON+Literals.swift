/// Literal conformances, so JSON values read like JSON in Swift source.
///
/// ```swift
/// let event: JSON = ["type": "increment", "by": 2, "note": nil, "ratio": 0.5]
/// ```
extension JSON: ExpressibleByNilLiteral {
  public init(nilLiteral: ()) { self = .null }
}

extension JSON: ExpressibleByBooleanLiteral {
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSON: ExpressibleByIntegerLiteral {
  public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension JSON: ExpressibleByFloatLiteral {
  public init(floatLiteral value: Double) { self = .number(value) }
}

extension JSON: ExpressibleByStringLiteral {
  public init(stringLiteral value: String) { self = .string(value) }
}

extension JSON: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: JSON...) { self = .array(elements) }
}

extension JSON: ExpressibleByDictionaryLiteral {
  /// Keys keep their source order; a repeated key keeps its first position and
  /// its last value.
  public init(dictionaryLiteral elements: (String, JSON)...) {
    self = .object(JSONObject(elements))
  }
}
