/// Reads an event's JSON object, `{"type": …, <flat fields>}`, phrasing every failure as a
/// `DecodingError` whose description names the field and what it accepts.
///
/// ```swift
/// public init(from decoder: any Decoder) throws {
///   let json = try EventReader(decoder, feature: "counter", types: ["increment", "set"])
///   switch json.type {
///   case "set": self = .set(try json.field("value", accepting: "an integer"))
///   default: self = .increment
///   }
/// }
/// ```
///
/// Messages read like `counter event "set" needs field "value": an integer` or
/// `unknown counter event type "jump"; accepted: increment, set`. Fields not asked for are
/// ignored.
@_spi(FeatureSupport) public struct EventReader {
  /// The event's `type`, one of the accepted types.
  public let type: String
  let fields: KeyedDecodingContainer<EventField>
  let feature: String

  public init(_ decoder: any Decoder, feature: String, types: [String]) throws {
    self.feature = feature
    let list = types.joined(separator: ", ")
    guard let fields = try? decoder.container(keyedBy: EventField.self) else {
      throw DecodingError.typeMismatch(
        [String: String].self,
        .init(
          codingPath: decoder.codingPath,
          debugDescription:
            "a \(feature) event must be a JSON object with a \"type\" (one of \(list)), like {\"type\":\"\(types.first ?? "")\"}"
        ))
    }
    self.fields = fields
    guard fields.contains(.type) else {
      throw DecodingError.keyNotFound(
        EventField.type,
        .init(
          codingPath: fields.codingPath,
          debugDescription: "a \(feature) event needs field \"type\": one of \(list)"))
    }
    guard let type = try? fields.decode(String.self, forKey: .type) else {
      throw DecodingError.typeMismatch(
        String.self,
        .init(
          codingPath: fields.codingPath + [EventField.type],
          debugDescription:
            "field \"type\" of a \(feature) event must be a string, one of \(list); got \(Self.sketch(fields, .type))"
        ))
    }
    guard types.contains(type) else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: fields.codingPath + [EventField.type],
          debugDescription:
            "unknown \(feature) event type \(JSONSketch.quoted(type)); accepted: \(list)"))
    }
    self.type = type
  }

  /// A field that must be present and not null.
  public func field<Value: Decodable>(_ name: String, accepting accepted: String) throws -> Value {
    let key = EventField(name)
    guard fields.contains(key) else {
      throw DecodingError.keyNotFound(
        key,
        .init(
          codingPath: fields.codingPath,
          debugDescription: "\(feature) event \"\(type)\" needs field \"\(name)\": \(accepted)"))
    }
    guard let value = try optionalField(name, accepting: accepted) as Value? else {
      throw mismatch(Value.self, key, accepted)
    }
    return value
  }

  /// A field that may be absent or null (both read as nil).
  public func optionalField<Value: Decodable>(
    _ name: String, accepting accepted: String
  ) throws -> Value? {
    let key = EventField(name)
    guard fields.contains(key), try !fields.decodeNil(forKey: key) else { return nil }
    do {
      return try fields.decode(Value.self, forKey: key)
    } catch {
      throw mismatch(Value.self, key, accepted)
    }
  }

  private func mismatch(_ type: Any.Type, _ key: EventField, _ accepted: String) -> DecodingError {
    .typeMismatch(
      type,
      .init(
        codingPath: fields.codingPath + [key],
        debugDescription:
          "field \"\(key.stringValue)\" of \(feature) event \"\(self.type)\" must be \(accepted); got \(Self.sketch(fields, key))"
      ))
  }

  private static func sketch(
    _ fields: KeyedDecodingContainer<EventField>, _ key: EventField
  )
    -> String
  {
    (try? fields.decode(JSONSketch.self, forKey: key))?.text ?? "nothing"
  }
}
