import WireJSON

/// One event of a feature, declared once: its `type`, what it does, its fields, and how to
/// make the event from them.
///
/// ```swift
/// .event("increment", "Adds the step.") { .increment }
/// .event("set", "Sets the count.", .integer("value", "The new count.", example: 5), CounterEvent.set)
/// ```
/// The `make` closure may throw ``EventRefusal/invalidField(_:_:)`` for a check across fields.
public struct EventCase<Event: Sendable>: Sendable {
  /// The `type` name, as in JSON; also the enum case's name (events encode by it).
  public let type: String
  public let summary: String
  /// The fields, in declaration order.
  public let fields: [FieldShape]
  /// A valid event of this type as JSON text, for messages.
  public let example: String
  /// Whether the event's result depends on the outside world (a service, the network), so
  /// that sending it again may end otherwise: `describe` says `"effects": true`, and
  /// `statectl replay` compares it on outcome and shape only. See ``effectful()``.
  public private(set) var hasEffects = false
  /// Makes the event from its fields (each looked up by name) or, when it has none
  /// (``event(_:_:_:)``), straight.
  let maker: EventMaker<Event>
  /// The event's JSON object less its fields' values, written once.
  let object: EventObject
  /// How the fields' values are read back from an event of this type (the payload its `make`
  /// was given) and written; nil when the event has no fields.
  let values: FieldValues<Event>?
  /// How the event is written in code that is not generic, when it has fields and its payload
  /// is read in place; nil otherwise.
  let writer: FieldsWriter?

  init(
    _ type: String, _ summary: String, fields: [FieldShape], example: String?,
    values: FieldValues<Event>?, make: (@Sendable () -> Event)? = nil,
    build: @escaping @Sendable ((String) -> FieldInput?, String) throws(EventRefusal) -> Event
  ) {
    precondition(fields.count <= FoundFields.capacity, "an event has at most 3 fields")
    self.type = type
    self.summary = summary
    self.fields = fields
    self.example = example ?? Self.composeExample(type, fields)
    let object = EventObject(type, fields)
    self.object = object
    self.values = values
    if let values, values.readsInPlace {
      writer = FieldsWriter(Event.self, object: object, values: values.inPlace)
    } else {
      writer = nil
    }
    let example = self.example
    maker = EventMaker(make: make) { lookup throws(EventRefusal) in try build(lookup, example) }
  }

  /// Writes `event`, an event of this type, as a client sends it, members sorted:
  /// `{"type":"set","value":5}`; an optional field's nil is left out. An event without fields
  /// is its bytes written once, whatever its case carries.
  func write(_ event: Event, to json: inout JSONWriter, byName: Bool = false) throws {
    guard let values else { return json.raw(object.bare) }
    try values.write(event, object, &json, byName)
  }

  /// Encodes `event`, an event of this type: its `type` and its fields.
  func encode(_ event: Event, to object: inout KeyedEncodingContainer<FieldKey>) throws {
    try object.encode(type, forKey: .type)
    try values?.encode(event, fields, &object)
  }

  /// This event, marked as one whose result depends on the outside world (``hasEffects``).
  ///
  /// ```swift
  /// .event("search", "Searches the catalog.", .string("term", "…"), AppSearchEvent.search)
  ///   .effectful()
  /// ```
  public func effectful() -> EventCase {
    var marked = self
    marked.hasEffects = true
    return marked
  }

  private static func composeExample(_ type: String, _ fields: [FieldShape]) -> String {
    var text = "{\"type\":\(FieldInput.quoted(type))"
    for field in fields where field.isRequired {
      text += ",\(FieldInput.quoted(field.name)):\(field.example ?? "null")"
    }
    return text + "}"
  }
}

extension EventCase {
  /// An event without fields.
  public static func event(
    _ type: String, _ summary: String, _ make: @escaping @Sendable () -> Event
  ) -> EventCase {
    EventCase(type, summary, fields: [], example: nil, values: nil, make: make) { _, _ in make() }
  }

  /// An event with one field.
  public static func event<A>(
    _ type: String, _ summary: String, _ a: Field<A>, example: String? = nil,
    _ make: @escaping @Sendable (A) throws(EventRefusal) -> Event
  ) -> EventCase {
    EventCase(
      type, summary, fields: [a.shape], example: example,
      values: FieldValues(
        type, A.self, carried: CarriedPayload.alternative(A.self),
        write: { value, _, json in try a.write(value, ifPresentTo: &json) },
        encodable: { value, _ in a.encodable(value) }, inPlace: [(0, a.eventWriting)])
    ) { lookup, example throws(EventRefusal) in
      try make(a.value(in: lookup, example: example))
    }
  }

  /// An event with two fields.
  public static func event<A, B>(
    _ type: String, _ summary: String, _ a: Field<A>, _ b: Field<B>, example: String? = nil,
    _ make: @escaping @Sendable (A, B) throws(EventRefusal) -> Event
  ) -> EventCase {
    EventCase(
      type, summary, fields: [a.shape, b.shape], example: example,
      values: FieldValues(
        type, (A, B).self, carried: CarriedPayload.alternative(A.self, B.self),
        write: { values, index, json in
          index == 0
            ? try a.write(values.0, ifPresentTo: &json) : try b.write(values.1, ifPresentTo: &json)
        },
        encodable: { values, index in
          index == 0 ? a.encodable(values.0) : b.encodable(values.1)
        },
        inPlace: [
          (0, a.eventWriting),
          (MemoryLayout<(A, B)>.offset(of: \(A, B).1)!, b.eventWriting),
        ])
    ) { lookup, example throws(EventRefusal) in
      try make(a.value(in: lookup, example: example), b.value(in: lookup, example: example))
    }
  }

  /// An event with three fields.
  public static func event<A, B, C>(
    _ type: String, _ summary: String, _ a: Field<A>, _ b: Field<B>, _ c: Field<C>,
    example: String? = nil, _ make: @escaping @Sendable (A, B, C) throws(EventRefusal) -> Event
  ) -> EventCase {
    EventCase(
      type, summary, fields: [a.shape, b.shape, c.shape], example: example,
      values: FieldValues(
        type, (A, B, C).self, carried: CarriedPayload.alternative(A.self, B.self, C.self),
        write: { values, index, json in
          switch index {
          case 0: try a.write(values.0, ifPresentTo: &json)
          case 1: try b.write(values.1, ifPresentTo: &json)
          default: try c.write(values.2, ifPresentTo: &json)
          }
        },
        encodable: { values, index in
          switch index {
          case 0: a.encodable(values.0)
          case 1: b.encodable(values.1)
          default: c.encodable(values.2)
          }
        },
        inPlace: [
          (0, a.eventWriting),
          (MemoryLayout<(A, B, C)>.offset(of: \(A, B, C).1)!, b.eventWriting),
          (MemoryLayout<(A, B, C)>.offset(of: \(A, B, C).2)!, c.eventWriting),
        ])
    ) { lookup, example throws(EventRefusal) in
      try make(
        a.value(in: lookup, example: example), b.value(in: lookup, example: example),
        c.value(in: lookup, example: example))
    }
  }
}

/// Where an event's fields are in the bytes, by declaration order: an event has at most three
/// (the `event` builders above), so no array is allocated for them.
struct FoundFields {
  static let capacity = 3
  private let fields: [FieldShape]
  private var first, second, third: JSONCursor?

  init(_ fields: [FieldShape]) { self.fields = fields }

  /// The value of the field `name` as it arrived, or nil when absent.
  func input(_ name: String) -> FieldInput? {
    fields.firstIndex { $0.name == name }.flatMap { self[$0] }.map(FieldInput.init)
  }

  /// The index of the field named `key`, or nil when none is.
  func index(of key: JSONKey) -> Int? {
    fields.firstIndex { key.matches($0.name) }
  }

  subscript(index: Int) -> JSONCursor? {
    get { index == 0 ? first : index == 1 ? second : third }
    set {
      switch index {
      case 0: first = newValue
      case 1: second = newValue
      default: third = newValue
      }
    }
  }
}
