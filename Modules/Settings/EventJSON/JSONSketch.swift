/// What a JSON value looked like, in a few words, for error messages: `"abc"`, `1.5`, `true`,
/// `null`, `an array`, `an object`.
///
/// ```swift
/// let seen = try container.decode(JSONSketch.self, forKey: key).text  // "\"50\""
/// ```
@_spi(FeatureSupport) public struct JSONSketch: Decodable, Sendable {
  public let text: String

  public init(from decoder: any Decoder) throws {
    if let value = try? decoder.singleValueContainer() {
      if value.decodeNil() {
        text = "null"
        return
      }
      if let string = try? value.decode(String.self) {
        text = Self.quoted(string)
        return
      }
      if let flag = try? value.decode(Bool.self) {
        text = String(flag)
        return
      }
      if let integer = try? value.decode(Int.self) {
        text = String(integer)
        return
      }
      if let number = try? value.decode(Double.self) {
        text = String(number)
        return
      }
    }
    text = (try? decoder.unkeyedContainer()) != nil ? "an array" : "an object"
  }

  /// The string in quotes, shortened to 40 characters.
  static func quoted(_ string: String) -> String {
    let short = string.count > 40 ? string.prefix(40) + "…" : Substring(string)
    return "\"\(short)\""
  }
}
