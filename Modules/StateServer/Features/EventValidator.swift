import BlocCore
import Wire

/// Checks an event payload against its ``EventSchema`` before decoding, so a client learns
/// exactly which field is wrong and what is expected (a decoder's message would not say).
///
/// Paths in messages start at the request: `event.value`, `event.items[2].name`.
enum EventValidator {
  static func validate(_ payload: EventPayload, against schema: EventSchema) throws(WireError) {
    try validate(
      object: payload.fields, fields: schema.fields, path: "event", owner: "event '\(schema.type)'")
  }

  private static func validate(
    object: JSONObject, fields: [FieldSchema], path: String, owner: String
  ) throws(WireError) {
    for field in fields {
      let fieldPath = "\(path).\(field.name)"
      guard let value = object[field.name], !(value.isNull && !field.required) else {
        if field.required {
          throw WireError(
            .missingField,
            "missing field '\(fieldPath)' (\(field.type)): \(field.summary)")
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
      throw WireError(
        .invalidField, "\(owner) has no field '\(key)' (at '\(path).\(key)'); \(accepted)")
    }
  }

  private static func check(_ value: JSON, _ type: ValueType, path: String) throws(WireError) {
    func mismatch(_ got: String) -> WireError {
      WireError(.invalidField, "field '\(path)' must be \(type), got \(got)")
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
        if case .number = value { throw mismatch("non-integer \(value)") }
        throw mismatch(value.typeName)
      }
      if let minimum, number < minimum { throw mismatch("\(number)") }
      if let maximum, number > maximum { throw mismatch("\(number)") }
    case .oneOf(let values):
      guard case .string(let text) = value else { throw mismatch(value.typeName) }
      guard values.contains(text) else { throw mismatch(JSON.string(text).serializedString()) }
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
    switch error {
    case .keyNotFound(let key, let context):
      return WireError(.missingField, "missing field '\(path(context.codingPath + [key]))'")
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      return WireError(
        .invalidField, "field '\(path(context.codingPath))': \(context.debugDescription)")
    case .dataCorrupted(let context):
      let place =
        context.codingPath.isEmpty ? "event '\(type)'" : "field '\(path(context.codingPath))'"
      return WireError(.invalidField, "\(place) is not valid: \(context.debugDescription)")
    @unknown default:
      return WireError(.invalidField, "event '\(type)' is not valid: \(error)")
    }
  }
}
