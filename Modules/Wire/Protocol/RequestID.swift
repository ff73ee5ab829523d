/// The optional `"id"` of a request, echoed verbatim in its reply so that a
/// client can pipeline requests and match the answers.
///
/// An integral number is kept exactly as `Int64`; a string is kept as is.
///
/// ```swift
/// let first: RequestID = 1
/// let named: RequestID = "reload-7"
/// first.json  // .integer(1)
/// ```
public enum RequestID: Hashable, Sendable {
  case number(Int64)
  case string(String)

  /// The id from a JSON value: an integer (or integral number within `Int64`)
  /// or a string. Nil for any other value.
  public init?(json: JSON) {
    switch json {
    case .string(let text): self = .string(text)
    case .integer, .number:
      guard let value = json.int64Value else { return nil }
      self = .number(value)
    default: return nil
    }
  }

  /// The id as a JSON value.
  public var json: JSON {
    switch self {
    case .number(let value): .integer(value)
    case .string(let text): .string(text)
    }
  }
}

extension RequestID: ExpressibleByIntegerLiteral {
  public init(integerLiteral value: Int64) { self = .number(value) }
}

extension RequestID: ExpressibleByStringLiteral {
  public init(stringLiteral value: String) { self = .string(value) }
}

extension RequestID: CustomStringConvertible {
  /// The id as JSON text: `7` or `"reload-7"`.
  public var description: String { json.serializedString() }
}
