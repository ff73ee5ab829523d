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
  /// Makes the event from its fields, each looked up by name (nil when absent).
  @usableFromInline let build:
    @Sendable ((String) -> FieldInput?, _ example: String) throws(EventRefusal) -> Event
  /// How each field's value is written, in declaration order.
  let writers: [FieldWriter]
  /// The order members are written in: by name, byte by byte; nil stands for `type`.
  private let writeOrder: [Int?]
  /// `"type":"…"` and each field's `"name":`, written once.
  private let typeMember: [UInt8]
  private let keys: [[UInt8]]

  init(
    _ type: String, _ summary: String, fields: [FieldShape], example: String?,
    writers: [FieldWriter],
    build: @escaping @Sendable ((String) -> FieldInput?, String) throws(EventRefusal) -> Event
  ) {
    precondition(fields.count <= FoundFields.capacity, "an event has at most 3 fields")
    self.type = type
    self.summary = summary
    self.fields = fields
    self.example = example ?? Self.composeExample(type, fields)
    self.writers = writers
    self.build = build
    var member = JSONWriter()
    member.key("type")
    member.string(type)
    typeMember = member.bytes
    keys = fields.map { field in
      var key = JSONWriter()
      key.key(field.name)
      return key.bytes
    }
    let names = [("type", nil)] + fields.enumerated().map { ($0.element.name, Optional($0.offset)) }
    writeOrder = names.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }.map(\.1)
  }

  /// Writes the event of this type whose field values are `values` (in declaration order), as
  /// a client sends it, members sorted: `{"type":"set","value":5}`. An optional field's nil
  /// is left out.
  func write(_ values: [Any], to json: inout JSONWriter) throws {
    json.byte(UInt8(ascii: "{"))
    var first = true
    for index in writeOrder {
      let start = json.bytes.count
      if !first { json.byte(UInt8(ascii: ",")) }
      guard let index else {
        json.raw(typeMember)
        first = false
        continue
      }
      json.raw(keys[index])
      if index < values.count, try writers[index].json(values[index], &json) {
        first = false
      } else {
        json.bytes.removeSubrange(start...)
      }
    }
    json.byte(UInt8(ascii: "}"))
  }

  /// Reads the members of the event object at `event` in one pass (``locate(_:)``), then
  /// makes the event; each field's value is read from the bytes when the field asks for it.
  @inlinable
  func decode(_ event: JSONCursor) throws(EventRefusal) -> Event {
    let found = try locate(event)
    return try build({ name in found.input(name) }, example)
  }

  /// Where each field's value is in the event object at `event` (a repeated member: its last
  /// value), refusing the first member that is not a field, in their order, before anything
  /// else is checked.
  @usableFromInline
  func locate(_ event: JSONCursor) throws(EventRefusal) -> FoundFields {
    var found = FoundFields(fields)
    var unknown: JSONKey?
    event.forEachMember { key, value in
      if let index = fields.firstIndex(where: { key.matches($0.name) }) {
        found[index] = value
      } else if !key.matches("type") {
        unknown = key
        return false
      }
      return true
    }
    if let unknown { throw unknownField(unknown.string) }
    return found
  }

  /// Whether the event has a field `name`.
  func declares(_ name: String) -> Bool { fields.contains { $0.name == name } }

  func unknownField(_ member: String) -> EventRefusal {
    let accepted =
      fields.isEmpty
      ? "it takes no fields"
      : "its fields are " + fields.map(\.name).joined(separator: ", ")
    let name = FieldInput.shortened(member)
    return EventRefusal(
      .invalidField, "event '\(type)' has no field '\(name)' (at 'event.\(name)'); \(accepted)")
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
    EventCase(type, summary, fields: [], example: nil, writers: []) { _, _ in make() }
  }

  /// An event with one field.
  public static func event<A>(
    _ type: String, _ summary: String, _ a: Field<A>, example: String? = nil,
    _ make: @escaping @Sendable (A) throws(EventRefusal) -> Event
  ) -> EventCase {
    EventCase(type, summary, fields: [a.shape], example: example, writers: [writer(a)]) {
      lookup, example throws(EventRefusal) in
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
      writers: [writer(a), writer(b)]
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
      writers: [writer(a), writer(b), writer(c)]
    ) { lookup, example throws(EventRefusal) in
      try make(
        a.value(in: lookup, example: example), b.value(in: lookup, example: example),
        c.value(in: lookup, example: example))
    }
  }

  /// Writes a field's value; an optional field's nil is left out, as if absent.
  private static func writer<V>(_ field: Field<V>) -> FieldWriter {
    let write = field.write
    return FieldWriter(
      encodable: { value in
        guard let value = value as? V, !isNil(value) else { return nil }
        return value
      },
      json: { value, json in
        guard let value = value as? V, !isNil(value) else { return false }
        try write(value, &json)
        return true
      })
  }

  private static func isNil(_ value: Any) -> Bool {
    let mirror = Mirror(reflecting: value)
    return mirror.displayStyle == .optional && mirror.children.isEmpty
  }
}

/// How one field of an event is written: for `Codable` (an `Encodable` value, nil when left
/// out) and as JSON (false when left out).
struct FieldWriter: Sendable {
  let encodable: @Sendable (Any) -> (any Encodable)?
  let json: @Sendable (Any, inout JSONWriter) throws -> Bool
}

/// Where an event's fields are in the bytes, by declaration order: an event has at most three
/// (the `event` builders above), so no array is allocated for them.
@usableFromInline
struct FoundFields {
  static let capacity = 3
  private let fields: [FieldShape]
  private var first, second, third: JSONCursor?

  init(_ fields: [FieldShape]) { self.fields = fields }

  /// The value of the field `name` as it arrived, or nil when absent.
  @usableFromInline
  func input(_ name: String) -> FieldInput? {
    fields.firstIndex { $0.name == name }.flatMap { self[$0] }.map(FieldInput.init)
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
