import BlocCore
import Wire

/// How `describe` shows schemas:
///
/// ```json
/// {"type":"set","summary":"Sets the count.","fields":[
///   {"name":"value","type":"integer","expects":"integer ≥ 0","required":true,
///    "summary":"The new count.","minimum":0}]}
/// ```
/// `type` is the JSON type; `expects` says the same for people, constraints included.
/// Constraints: `minimum`/`maximum` (integer), `values` (a string from a list),
/// `items` (an array's element type), `fields` (an object's fields).
enum SchemaJSON {
  static func event(_ schema: EventSchema) -> JSON {
    [
      "type": .string(schema.type), "summary": .string(schema.summary),
      "fields": .array(schema.fields.map(field)),
    ]
  }

  static func field(_ field: FieldSchema) -> JSON {
    var object: JSONObject = [
      "name": .string(field.name), "type": .string(field.type.jsonType),
      "expects": .string(field.type.description), "required": .bool(field.required),
      "summary": .string(field.summary),
    ]
    constraints(field.type, into: &object)
    return .object(object)
  }

  /// A type on its own (an array's items): `{"type":…,"expects":…,…constraints}`.
  static func type(_ type: ValueType) -> JSON {
    var object: JSONObject = [
      "type": .string(type.jsonType), "expects": .string(type.description),
    ]
    constraints(type, into: &object)
    return .object(object)
  }

  private static func constraints(_ type: ValueType, into object: inout JSONObject) {
    switch type {
    case .string, .number, .boolean:
      break
    case .integer(let minimum, let maximum):
      if let minimum { object["minimum"] = JSON(minimum) }
      if let maximum { object["maximum"] = JSON(maximum) }
    case .oneOf(let values):
      object["values"] = .array(values.map(JSON.string))
    case .array(let element):
      object["items"] = Self.type(element)
    case .object(let fields):
      object["fields"] = .array(fields.map(field))
    }
  }
}
