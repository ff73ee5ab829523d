/// The JSON type of a field, with the constraints a client needs to build a valid value.
/// `describe` shows it; messages use ``description``.
///
/// ```swift
/// FieldType.integer(minimum: 1, maximum: 200).description  // "integer 1…200"
/// FieldType.anyOf([.integer(), .string(), .null]).jsonType   // "any"
/// ```
public indirect enum FieldType: Sendable, Equatable, CustomStringConvertible {
  /// A string, optionally restricted by a rule (e.g. two letters).
  case string(StringRule? = nil)
  /// An integer written as digits only, optionally bounded (both ends included).
  case integer(minimum: Int64? = nil, maximum: Int64? = nil)
  case number
  case boolean
  /// A string that must be one of `values`.
  case oneOf([String])
  case array(FieldType)
  case object([FieldShape])
  /// Any of these types: a value whose type depends on another field.
  case anyOf([FieldType])
  case null

  /// The JSON type name: string, integer, number, boolean, array, object, null, or `any` for
  /// ``anyOf(_:)``.
  public var jsonType: String {
    switch self {
    case .string, .oneOf: return "string"
    case .integer: return "integer"
    case .number: return "number"
    case .boolean: return "boolean"
    case .array: return "array"
    case .object: return "object"
    case .anyOf: return "any"
    case .null: return "null"
    }
  }

  public var description: String {
    switch self {
    case .string(let rule?): return "string (\(rule.summary))"
    case .string(nil), .number, .boolean, .object, .null: return jsonType
    case .integer(let minimum, let maximum):
      switch (minimum, maximum) {
      case (let low?, let high?): return "integer \(low)…\(high)"
      case (let low?, nil): return "integer ≥ \(low)"
      case (nil, let high?): return "integer ≤ \(high)"
      case (nil, nil): return "integer"
      }
    case .oneOf(let values): return "one of " + values.joined(separator: " | ")
    case .array(let element): return "array of \(element)"
    case .anyOf(let types): return types.map(\.description).joined(separator: " or ")
    }
  }
}

/// A rule a string must follow, said for people and as a regular expression for tools.
///
/// ```swift
/// let code = StringRule("two letters, an ISO 3166 country code", pattern: "^[A-Za-z]{2}$") {
///   $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isLetter }
/// }
/// ```
public struct StringRule: Sendable, Equatable {
  /// What the rule accepts, as a noun phrase.
  public let summary: String
  /// The same rule as a regular expression (shown by `describe`).
  public let pattern: String
  private let check: @Sendable (String) -> Bool

  public init(_ summary: String, pattern: String, _ check: @escaping @Sendable (String) -> Bool) {
    self.summary = summary
    self.pattern = pattern
    self.check = check
  }

  public func accepts(_ text: String) -> Bool { check(text) }

  public static func == (lhs: StringRule, rhs: StringRule) -> Bool {
    lhs.summary == rhs.summary && lhs.pattern == rhs.pattern
  }
}

/// A field as `describe` shows it: of an event, of a state, or of an object inside one.
public struct FieldShape: Sendable, Equatable {
  public let name: String
  public let type: FieldType
  public let summary: String
  /// Whether the field must be present (an optional field may be absent or null).
  public let isRequired: Bool
  /// A valid value as JSON text, for messages: `5`, `"maps"`.
  public let example: String?

  public init(
    _ name: String, _ type: FieldType, _ summary: String, required: Bool = true,
    example: String? = nil
  ) {
    self.name = name
    self.type = type
    self.summary = summary
    self.isRequired = required
    self.example = example
  }
}
