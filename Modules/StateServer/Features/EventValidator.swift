import BlocCore
import Wire

/// Checks an event payload against its ``EventSchema`` before decoding, so a client learns
/// exactly which field is wrong and what is expected (a decoder's message would not say).
///
/// Paths in messages start at the request: `event.value`, `event.items[2].name`.
///
/// Unknown fields, missing required fields and values outside a constraint (range, list) are
/// refused. A value of another JSON type than the schema names is refused only if the
/// feature's decoder refuses the event too (see ``Feature/send(_:)``): a schema cannot say
/// that a value's type depends on another field (Settings' `value`), and must not lock
/// clients out of what the feature accepts.
enum EventValidator {
  /// A payload the schema does not accept.
  struct Violation: Error {
    let error: WireError
    /// False for a JSON type mismatch, which the decoder may still accept.
    let isFinal: Bool
  }

  static func validate(_ payload: EventPayload, against schema: EventSchema) throws(Violation) {
    // Most events have no fields: nothing to check, no message to build.
    if payload.fields.isEmpty, !schema.fields.contains(where: \.required) { return }
    try validate(
      object: payload.fields, fields: schema.fields, path: "event", owner: "event '\(schema.type)'")
  }

  private static func validate(
    object: JSONObject, fields: [FieldSchema], path: String, owner: @autoclosure () -> String
  ) throws(Violation) {
    for field in fields {
      let fieldPath = "\(path).\(field.name)"
      guard let value = object[field.name], !(value.isNull && !field.required) else {
        if field.required {
          throw Violation(
            error: WireError(
              .missingField, "missing field '\(fieldPath)' (\(field.type)): \(field.summary)"),
            isFinal: true)
        }
        continue
      }
      try check(value, field.type, path: fieldPath)
    }
    for (key, _) in object where !fields.contains(where: { $0.name == key }) {
      let accepted =
        fields.isEmpty
        ? "it takes no fields"
        : "its fields are " + fields.map(\.name).joined(separator: ", ")
      throw Violation(
        error: WireError(
          .invalidField, "\(owner()) has no field '\(key)' (at '\(path).\(key)'); \(accepted)"),
        isFinal: true)
    }
  }

  private static func check(_ value: JSON, _ type: ValueType, path: String) throws(Violation) {
    func mismatch(_ got: String, final: Bool = false) -> Violation {
      Violation(
        error: WireError(.invalidField, "field '\(path)' must be \(type), got \(got)"),
        isFinal: final)
    }
    switch type {
    case .string:
      guard case .string = value else { throw mismatch(value.typeName) }
    case .boolean:
      guard case .bool = value else { throw mismatch(value.typeName) }
    case .number:
      switch value {
      case .integer, .number: break
      default: throw mismatch(value.typeName)
      }
    case .integer(let minimum, let maximum):
      guard let number = value.intValue else {
        if case .number = value { throw mismatch("non-integer \(value)", final: true) }
        throw mismatch(value.typeName)
      }
      if let minimum, number < minimum { throw mismatch("\(number)", final: true) }
      if let maximum, number > maximum { throw mismatch("\(number)", final: true) }
    case .oneOf(let values):
      guard case .string(let text) = value else { throw mismatch(value.typeName) }
      guard values.contains(text) else {
        throw mismatch(JSON.string(text).serializedString(), final: true)
      }
    case .array(let element):
      guard case .array(let elements) = value else { throw mismatch(value.typeName) }
      for (index, item) in elements.enumerated() {
        try check(item, element, path: "\(path)[\(index)]")
      }
    case .object(let fields):
      guard case .object(let object) = value else { throw mismatch(value.typeName) }
      try validate(object: object, fields: fields, path: path, owner: "field '\(path)'")
    }
  }

  /// The protocol error for a payload that passed the schema but not the decoder (the
  /// feature's own checks, or a schema that says less than the `Codable` type).
  static func wireError(for error: DecodingError, type: String) -> WireError {
    func path(_ codingPath: [any CodingKey]) -> String {
      codingPath.reduce("event") { path, key in
        if let index = key.intValue { return "\(path)[\(index)]" }
        return "\(path).\(key.stringValue)"
      }
    }
    // A feature's own message usually names the field already; a generic one gets the path.
    func message(_ context: DecodingError.Context) -> String {
      let text = context.debugDescription
      guard let last = context.codingPath.last?.stringValue,
        text.contains("\"\(last)\"") || text.contains("'\(last)'")
      else { return "field '\(path(context.codingPath))': \(text)" }
      return text
    }
    switch error {
    case .keyNotFound(let key, let context):
      return WireError(.missingField, "missing field '\(path(context.codingPath + [key]))'")
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      return WireError(.invalidField, message(context))
    case .dataCorrupted(let context):
      let place =
        context.codingPath.isEmpty ? "event '\(type)'" : "field '\(path(context.codingPath))'"
      return WireError(.invalidField, "\(place) is not valid: \(context.debugDescription)")
    @unknown default:
      return WireError(.invalidField, "event '\(type)' is not valid: \(error)")
    }
  }
}
