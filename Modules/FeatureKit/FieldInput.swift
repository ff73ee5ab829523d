import WireJSON

/// One field's value as it arrived, seen one level deep: what a feature's declaration reads.
///
/// Made for one field when the declaration asks for it, without a tree: the daemon reads it
/// from the request's bytes (``init(_:)``), `Codable` decoding from a `Decoder`'s container.
///
/// ```swift
/// FieldInput.integer(5).sketch          // "5"
/// FieldInput.string("maps").typeName    // "string"
/// ```
public enum FieldInput: Sendable, Hashable {
  case null
  case bool(Bool)
  /// A number written as digits only that fits in `Int64`.
  case integer(Int64)
  /// Any other number: written with a fraction or an exponent, or beyond `Int64`.
  case number(Double)
  case string(String)
  case array(count: Int)
  case object(count: Int)

  /// The value at `cursor` (in a checked document): a scalar as it is, an array or an object
  /// by its size, without reading what is inside.
  public init(_ cursor: JSONCursor) {
    switch cursor.typeName {
    case "array": self = .array(count: cursor.count)
    case "object": self = .object(count: cursor.count)
    default:
      switch cursor.json {
      case .bool(let flag): self = .bool(flag)
      case .integer(let value): self = .integer(value)
      case .number(let value): self = .number(value)
      case .string(let text): self = .string(text)
      case .null, .array, .object: self = .null
      }
    }
  }

  /// The JSON type: null, boolean, integer, number, string, array or object.
  public var typeName: String {
    switch self {
    case .null: return "null"
    case .bool: return "boolean"
    case .integer: return "integer"
    case .number: return "number"
    case .string: return "string"
    case .array: return "array"
    case .object: return "object"
    }
  }

  /// What the value looked like, for messages: never longer than about 64 characters.
  public var sketch: String {
    switch self {
    case .null: return "null"
    case .bool(let flag): return String(flag)
    case .integer(let value): return String(value)
    case .number(let value): return "the number \(value)"
    case .string(let text): return Self.quoted(text)
    case .array(let count): return "an array of \(count)"
    case .object: return "an object"
    }
  }

  /// `text` cut to 60 characters, for messages.
  public static func shortened(_ text: String) -> String {
    text.count > 60 ? text.prefix(60) + "…" : text
  }

  /// `text` in double quotes as JSON writes it (quotes, backslashes and newlines escaped), cut
  /// to 60 characters.
  public static func quoted(_ text: String) -> String {
    var quoted = "\""
    for character in shortened(text) {
      switch character {
      case "\"": quoted += "\\\""
      case "\\": quoted += "\\\\"
      case "\n": quoted += "\\n"
      default: quoted.append(character)
      }
    }
    return quoted + "\""
  }
}
