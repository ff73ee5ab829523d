import Wire

/// The hint for a field sent as text that was meant as JSON: `value=50` sends the string "50",
/// which an integer field refuses; `value:=50` sends the number (httpie's convention, see
/// ``EventFields``).
///
/// ```swift
/// TypedFieldHint.hint(
///   for: WireError(.invalidField, "field 'event.value' must be integer, got \"50\""),
///   event: ["type": "set", "value": "50"])
/// // "value=50 sends the string \"50\"; to send the number 50, write value:=50"
/// ```
enum TypedFieldHint {
  /// A hint when the refusal is about a field (named `'event.NAME'` in the message, or the only
  /// candidate) whose text is itself a JSON value other than a string; nil otherwise.
  static func hint(for error: WireError, event: JSONObject?) -> String? {
    guard error.code == .invalidField, let event else { return nil }
    let candidates: [(name: String, text: String, value: JSON)] = event.compactMap { member in
      guard member.key != "type", case .string(let text) = member.value,
        let value = try? JSONParser().parse(text)
      else { return nil }
      if case .string = value { return nil }
      return (member.key, text, value)
    }
    let named = candidates.filter { error.message.contains("'event.\($0.name)'") }
    let mentionsAField = error.message.contains("'event.")
    guard let field = named.first ?? (mentionsAField ? nil : candidates.first),
      named.count == 1 || (!mentionsAField && candidates.count == 1)
    else { return nil }
    return "\(field.name)=\(field.text) sends the string \"\(field.text)\"; to send "
      + "\(description(of: field.value, text: field.text)), write \(field.name):=\(field.text)"
  }

  private static func description(of value: JSON, text: String) -> String {
    switch value {
    case .integer, .number: "the number \(text)"
    case .bool: "the boolean \(text)"
    case .null: "null"
    case .array: "the array"
    case .object: "the object"
    case .string: "the string"
    }
  }
}
