import FeatureKit

/// A setting's value as it arrives: an integer, a string, or null (no value).
///
/// Literals make events short:
/// ```swift
/// settings.add(.set(.searchLimit, 50))
/// settings.add(.set(.searchBackend, "itunes"))
/// settings.add(.set(.counterMaximum, nil))
/// ```
public enum SettingValue: Sendable, Hashable, CustomStringConvertible {
  case integer(Int)
  case string(String)
  case null

  /// As in JSON: `50`, `"itunes"`, `null`.
  public var description: String {
    switch self {
    case .integer(let value): return String(value)
    case .string(let value): return FieldInput.quoted(value)
    case .null: return "null"
    }
  }
}

extension SettingValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral,
  ExpressibleByNilLiteral
{
  public init(integerLiteral value: Int) { self = .integer(value) }
  public init(stringLiteral value: String) { self = .string(value) }
  public init(nilLiteral: ()) { self = .null }
}

extension SettingValue: Codable {
  /// Reads a JSON integer, string or null; anything else is refused.
  public init(from decoder: any Decoder) throws {
    let value = try decoder.singleValueContainer()
    if value.decodeNil() {
      self = .null
    } else if let integer = try? value.decode(Int.self) {
      self = .integer(integer)
    } else if let string = try? value.decode(String.self) {
      self = .string(string)
    } else {
      throw DecodingError.typeMismatch(
        SettingValue.self,
        .init(
          codingPath: decoder.codingPath,
          debugDescription: "a setting value must be an integer, a string or null"))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var value = encoder.singleValueContainer()
    switch self {
    case .integer(let integer): try value.encode(integer)
    case .string(let string): try value.encode(string)
    case .null: try value.encodeNil()
    }
  }
}

extension SettingValue: JSONWritable {
  public func write(to json: inout JSONWriter) {
    switch self {
    case .integer(let integer): json.integer(Int64(integer))
    case .string(let string): json.string(string)
    case .null: json.null()
    }
  }
}
