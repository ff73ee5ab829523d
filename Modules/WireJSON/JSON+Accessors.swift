/// Typed views of a `JSON` value. Each returns nil when the value has another type.
///
/// ```swift
/// let json: JSON = ["feature": "counter", "seq": 7, "items": [1, 2]]
/// json["feature"]?.stringValue  // "counter"
/// json["seq"]?.intValue         // 7
/// json["items"]?[1]?.intValue   // 2
/// json["missing"]               // nil
/// ```
extension JSON {
  /// Whether this is `.null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The value of a `.bool`.
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The value of an `.integer`, or of a `.number` holding an integral value
  /// that `Int64` represents exactly (so `2.0` gives `2`, `2.5` gives nil).
  public var int64Value: Int64? {
    switch self {
    case .integer(let value): return value
    case .number(let value): return Int64(exactly: value)
    default: return nil
    }
  }

  /// `int64Value` as an `Int`.
  public var intValue: Int? {
    int64Value.flatMap { Int(exactly: $0) }
  }

  /// The value of a `.number`, or an `.integer` converted to `Double`
  /// (rounded for magnitudes above 2^53).
  public var doubleValue: Double? {
    switch self {
    case .integer(let value): return Double(value)
    case .number(let value): return value
    default: return nil
    }
  }

  /// The value of a `.string`.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The elements of an `.array`.
  public var arrayValue: [JSON]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The members of an `.object`.
  public var objectValue: JSONObject? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// The member named `key` of an object; nil if absent or not an object.
  ///
  /// Setting a member of an object inserts, replaces, or (with nil) removes it.
  /// Setting a member of anything else is a programming error and traps.
  public subscript(key: String) -> JSON? {
    get {
      if case .object(let object) = self { return object[key] }
      return nil
    }
    set {
      guard case .object(var object) = self else {
        preconditionFailure("cannot set member '\(key)' of a JSON \(typeName)")
      }
      self = .null  // drop our reference so `object` stays uniquely owned
      object[key] = newValue
      self = .object(object)
    }
  }

  /// The element at `index` of an array; nil if out of bounds or not an array.
  public subscript(index: Int) -> JSON? {
    guard case .array(let array) = self, array.indices.contains(index) else { return nil }
    return array[index]
  }
}
