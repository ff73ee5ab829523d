/// A value that writes its own JSON with ``JSONWriter``: no `Encoder`, no tree in between.
/// JSON's own types conform here; FeatureKit's declared states and events conform through
/// their declarations, so the daemon writes each state once, straight to bytes.
///
/// ```swift
/// var writer = JSONWriter()
/// try [1.5, 2].write(to: &writer)  // [1.5,2]
/// ```
public protocol JSONWritable {
  /// Appends the value's JSON. Throws for a value JSON cannot express (a non-finite number).
  func write(to json: inout JSONWriter) throws
}

extension JSONWriter {
  /// A number JSON cannot express (NaN or an infinity): refused, as `JSONEncoder` refuses it,
  /// so that what is stored always reads back.
  public struct NonFinite: Error, CustomStringConvertible {
    public let value: Double
    public init(value: Double) { self.value = value }
    public var description: String { "Unable to encode \(value) directly in JSON." }
  }

  /// A value of a type that does not write itself (not ``JSONWritable``).
  public struct Unwritable: Error, CustomStringConvertible {
    public let type: String
    public init(type: String) { self.type = type }
    public var description: String { "\(type) does not write itself as JSON (JSONWritable)" }
  }

  /// `value` as `JSONEncoder` writes it, the form states have always been stored and sent in:
  /// an integral value up to 2^53 (except -0.0) without fraction or exponent (`5`, which
  /// reads back as an integer), anything else in Swift's shortest round-tripping form.
  public mutating func finite(_ value: Double) throws {
    guard value.isFinite else { throw NonFinite(value: value) }
    if value == value.rounded(.towardZero), abs(value) <= 9_007_199_254_740_992,
      !(value == 0 && value.sign == .minus)
    {
      integer(Int64(value))
    } else {
      number(value)
    }
  }
}

extension String: JSONWritable {
  public func write(to json: inout JSONWriter) { json.string(self) }
}

extension Bool: JSONWritable {
  public func write(to json: inout JSONWriter) { json.bool(self) }
}

extension Int: JSONWritable {
  public func write(to json: inout JSONWriter) { json.integer(Int64(self)) }
}

extension Int64: JSONWritable {
  public func write(to json: inout JSONWriter) { json.integer(self) }
}

extension Int32: JSONWritable {
  public func write(to json: inout JSONWriter) { json.integer(Int64(self)) }
}

extension Int16: JSONWritable {
  public func write(to json: inout JSONWriter) { json.integer(Int64(self)) }
}

extension Int8: JSONWritable {
  public func write(to json: inout JSONWriter) { json.integer(Int64(self)) }
}

extension UInt: JSONWritable {
  public func write(to json: inout JSONWriter) { json.unsigned(UInt64(self)) }
}

extension UInt64: JSONWritable {
  public func write(to json: inout JSONWriter) { json.unsigned(self) }
}

extension UInt32: JSONWritable {
  public func write(to json: inout JSONWriter) { json.unsigned(UInt64(self)) }
}

extension UInt16: JSONWritable {
  public func write(to json: inout JSONWriter) { json.unsigned(UInt64(self)) }
}

extension UInt8: JSONWritable {
  public func write(to json: inout JSONWriter) { json.unsigned(UInt64(self)) }
}

extension Double: JSONWritable {
  public func write(to json: inout JSONWriter) throws { try json.finite(self) }
}

extension Float: JSONWritable {
  /// The float's shortest text, as `JSONEncoder` writes it (`0.1`, not `0.10000000149011612`).
  public func write(to json: inout JSONWriter) throws {
    guard isFinite else { throw JSONWriter.NonFinite(value: Double(self)) }
    try json.finite(Double(description) ?? Double(self))
  }
}

extension Optional: JSONWritable where Wrapped: JSONWritable {
  /// The value, or `null`.
  public func write(to json: inout JSONWriter) throws {
    if let value = self { try value.write(to: &json) } else { json.null() }
  }
}

extension Array: JSONWritable where Element: JSONWritable {
  public func write(to json: inout JSONWriter) throws {
    json.byte(.openBracket)
    for index in indices {
      if index > startIndex { json.byte(.comma) }
      try self[index].write(to: &json)
    }
    json.byte(.closeBracket)
  }
}

extension JSON: JSONWritable {
  public func write(to json: inout JSONWriter) { json.json(self) }
}

extension JSONWritable where Self: RawRepresentable, RawValue == String {
  /// An enum of strings writes its raw value.
  public func write(to json: inout JSONWriter) { json.string(rawValue) }
}
