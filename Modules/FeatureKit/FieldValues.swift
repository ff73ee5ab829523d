import WireJSON

/// How the values of one event type's fields are read back from an event, to write it: they
/// are its enum case's payload, the values its `make` was given, in declaration order (one
/// value, or a tuple of two or three). Typed, so that each field writes its own value with no
/// `Any` in between.
struct FieldValues<Event: Sendable>: Sendable {
  /// Writes `event`'s object (``EventObject``) with its fields' values; `byName`: reading them
  /// with `Mirror` even when the payload can be read in place (``PayloadReader``).
  let write: @Sendable (Event, EventObject, inout JSONWriter, _ byName: Bool) throws -> Void
  /// Encodes `event`'s fields (`fields`, their shapes) for an `Encoder`.
  let encode:
    @Sendable (Event, _ fields: [FieldShape], inout KeyedEncodingContainer<FieldKey>) throws ->
      Void
  /// Whether the payload is read in place, not through `Mirror`.
  let readsInPlace: Bool
  /// Each field's offset in the payload and how it is written in code that is not generic
  /// (``FieldsWriter``), in declaration order.
  let inPlace: [(offset: Int, writing: EventValueWriting)]

  /// - Parameters:
  ///   - write: writes the value at an index of the payload; false when it is left out.
  ///   - encodable: the value at an index of the payload; nil when it is left out.
  ///   - inPlace: each field's offset in the payload and writing, for a ``FieldsWriter``.
  ///   - carried: ``CarriedPayload/alternative(_:)`` of the fields' types.
  init<Payload>(
    _ type: String, _: Payload.Type, carried: Any.Type? = nil,
    write: @escaping @Sendable (Payload, Int, inout JSONWriter) throws -> Bool,
    encodable: @escaping @Sendable (Payload, Int) -> (any Encodable)?,
    inPlace: [(offset: Int, writing: EventValueWriting)]
  ) {
    let reader = PayloadReader<Event, Payload>(type, carried: carried)
    readsInPlace = reader.tag != nil
    self.inPlace = inPlace
    self.write = { event, object, json, byName in
      let payload = try reader.payload(of: event, byName: byName)
      try object.write(to: &json) { index, json in try write(payload, index, &json) }
    }
    self.encode = { event, fields, container in
      let payload = try reader.payload(of: event, byName: false)
      for (index, field) in fields.enumerated() {
        guard let value = encodable(payload, index) else { continue }
        try container.encode(value, forKey: FieldKey(field.name))
      }
    }
  }
}

/// Reads the payload of an event of one declared type as its fields' values: in place, when the
/// enum case of that name carries exactly a `Payload` (checked once, from the type's metadata)
/// or a payload of the same layout (`alternative`: a field declared optional carried unwrapped,
/// ``CarriedPayload``), else with `Mirror` and a cast, which also accepts a labelled tuple or a
/// value declared optional of another layout.
struct PayloadReader<Event: Sendable, Payload>: Sendable {
  let type: String
  /// The tag of the case named `type` when its payload is a `Payload` or `alternative`; nil
  /// otherwise.
  let tag: Int?

  init(_ type: String, carried alternative: Any.Type? = nil) {
    self.type = type
    guard EnumCases.isReadable(Event.self),
      let (tag, carried) = EnumCases.payload(ofCase: type, in: Event.self),
      carried == Payload.self || carried == alternative
    else {
      tag = nil
      return
    }
    self.tag = tag
  }

  /// The payload of `event`, an event of the type `type`, as its fields' values; `byName`:
  /// with `Mirror` in any case.
  func payload(of event: Event, byName: Bool) throws(PayloadMismatch) -> Payload {
    // The tag is checked again, so that memory is only ever read as the case it holds.
    if !byName, let tag, EnumCases.tag(of: event) == tag {
      return withUnsafeTemporaryAllocation(of: Event.self, capacity: 1) { buffer in
        let address = buffer.baseAddress!
        address.initialize(to: event)
        EnumCases.projectPayload(at: address)
        return UnsafeMutableRawPointer(address).assumingMemoryBound(to: Payload.self).move()
      }
    }
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

/// The payload a case may carry for its declared fields other than exactly their values: each
/// field declared optional carried unwrapped, when the optional takes no more room than the
/// value (`case set(SettingKey, SettingValue)` for a `SettingValue?` field). Such a payload has
/// the declared payload's layout, and each value in it, read as the optional, reads as present:
/// it is read in place as the declared payload, what `Mirror` and a cast would give.
enum CarriedPayload {
  /// The payload with each optional of the same layout unwrapped, or nil when no type changes.
  static func alternative(_ types: Any.Type...) -> Any.Type? {
    let unwrapped = types.map { type in
      (type as? any OptionalMarker.Type)?.wrappedOfSameLayout
    }
    guard unwrapped.contains(where: { $0 != nil }) else { return nil }
    let carried = zip(types, unwrapped).map { $1 ?? $0 }
    switch carried.count {
    case 1: return carried[0]
    case 2: return pair(carried[0], carried[1])
    default: return triple(carried[0], carried[1], carried[2])
    }
  }

  private static func pair(_ a: Any.Type, _ b: Any.Type) -> Any.Type {
    func first<A>(_: A.Type) -> Any.Type {
      func second<B>(_: B.Type) -> Any.Type { (A, B).self }
      return second(b)
    }
    return first(a)
  }

  private static func triple(_ a: Any.Type, _ b: Any.Type, _ c: Any.Type) -> Any.Type {
    func first<A>(_: A.Type) -> Any.Type {
      func second<B>(_: B.Type) -> Any.Type {
        func third<C>(_: C.Type) -> Any.Type { (A, B, C).self }
        return third(c)
      }
      return second(b)
    }
    return first(a)
  }
}
