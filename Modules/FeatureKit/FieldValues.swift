import WireJSON

/// How the values of one event type's fields are read back from an event, to write it: they
/// are its enum case's payload, the values its `make` was given, in declaration order (one
/// value, or a tuple of two or three). Typed, so that each field writes its own value with no
/// `Any` in between.
struct FieldValues<Event: Sendable>: Sendable {
  /// Writes `event`'s object (``EventObject``) with its fields' values.
  let write: @Sendable (Event, EventObject, inout JSONWriter) throws -> Void
  /// Encodes `event`'s fields (`fields`, their shapes) for an `Encoder`.
  let encode:
    @Sendable (Event, _ fields: [FieldShape], inout KeyedEncodingContainer<FieldKey>) throws ->
      Void

  /// - Parameters:
  ///   - write: writes the value at an index of the payload; false when it is left out.
  ///   - encodable: the value at an index of the payload; nil when it is left out.
  init<Payload>(
    _ type: String, _: Payload.Type,
    write: @escaping @Sendable (Payload, Int, inout JSONWriter) throws -> Bool,
    encodable: @escaping @Sendable (Payload, Int) -> (any Encodable)?
  ) {
    self.write = { event, object, json in
      let payload = try Self.payload(of: event, type, as: Payload.self)
      try object.write(to: &json) { index, json in try write(payload, index, &json) }
    }
    self.encode = { event, fields, container in
      let payload = try Self.payload(of: event, type, as: Payload.self)
      for (index, field) in fields.enumerated() {
        guard let value = encodable(payload, index) else { continue }
        try container.encode(value, forKey: FieldKey(field.name))
      }
    }
  }

  /// The payload of `event`, an event of the type `type`, as its fields' values.
  private static func payload<Payload>(
    of event: Event, _ type: String, as _: Payload.Type
  ) throws(PayloadMismatch) -> Payload {
    let carried = Mirror(reflecting: event).children.first?.value
    guard let payload = carried as? Payload else {
      throw PayloadMismatch(
        event: "\(Event.self)", type: type, declared: "\(Payload.self)",
        carried: carried.map { "\(Swift.type(of: $0))" })
    }
    return payload
  }
}

/// An event whose case carries other values than its declared fields: it cannot be written.
/// A declared event's fields are its case's values, in their order (`.event("set", …,
/// .integer("value", …), CounterEvent.set)` for `case set(Int)`).
struct PayloadMismatch: Error, CustomStringConvertible {
  let event: String
  let type: String
  let declared: String
  /// The payload's type; nil when the case carries none.
  let carried: String?

  var description: String {
    "the event '\(type)' of \(event) carries \(carried ?? "no value"), not its declared fields' "
      + "values (\(declared)): declare the fields its case carries, in their order"
  }
}
