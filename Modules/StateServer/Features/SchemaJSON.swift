import FeatureKit
import Wire

/// How `describe` shows a feature's declarations:
///
/// ```json
/// {"type":"set","summary":"Sets the count.","example":{"type":"set","value":5},"fields":[
///   {"name":"value","type":"integer","expects":"integer ≥ 0","required":true,
///    "summary":"The new count.","example":5,"minimum":0}]}
/// ```
/// An event whose result depends on the outside world has `"effects": true`.
/// `type` is the JSON type (`any` for a value of several types, listed in `types`);
/// `expects` says the same for people, constraints included. Constraints: `minimum`/`maximum`
/// (integer), `values` (a string from a list), `pattern` (a string's rule, a regular
/// expression), `items` (an array's element type), `fields` (an object's fields).
enum SchemaJSON {
  static func event(_ event: EventShape) -> JSON {
    var object: JSONObject = [
      "type": .string(event.type), "summary": .string(event.summary),
      "fields": .array(event.fields.map(field)),
    ]
    if let example = parsed(event.example) { object["example"] = example }
    if event.hasEffects { object["effects"] = true }
    return .object(object)
  }

  static func field(_ field: FieldShape) -> JSON {
    var object: JSONObject = [
      "name": .string(field.name), "type": .string(field.type.jsonType),
      "expects": .string(field.type.description), "required": .bool(field.isRequired),
      "summary": .string(field.summary),
    ]
    if let example = field.example.flatMap(parsed) { object["example"] = example }
    constraints(field.type, into: &object)
    return .object(object)
  }

  /// A type on its own (an array's items): `{"type":…,"expects":…,…constraints}`.
  static func type(_ type: FieldType) -> JSON {
    var object: JSONObject = [
      "type": .string(type.jsonType), "expects": .string(type.description),
    ]
    constraints(type, into: &object)
    return .object(object)
  }

  private static func constraints(_ type: FieldType, into object: inout JSONObject) {
    switch type {
    case .string(nil), .number, .boolean, .null:
      break
    case .string(let rule?):
      object["pattern"] = .string(rule.pattern)
    case .integer(let minimum, let maximum):
      if let minimum { object["minimum"] = .integer(minimum) }
      if let maximum { object["maximum"] = .integer(maximum) }
    case .oneOf(let values):
      object["values"] = .array(values.map(JSON.string))
    case .array(let element):
      object["items"] = Self.type(element)
    case .object(let fields):
      object["fields"] = .array(fields.map(field))
    case .anyOf(let types):
      object["types"] = .array(types.map(Self.type))
    }
  }

  /// An example written by a declaration, as JSON (nil if it is not valid JSON).
  private static func parsed(_ text: String) -> JSON? {
    Array(text.utf8).withUnsafeBytes { try? JSONParser().parse($0) }
  }
}
