import BlocCore
import WireJSON

/// Every event of a feature, declared once, in the order `describe` lists them.
///
/// ```swift
/// extension CounterEvent: DeclaredEvent {
///   public static let declaration = EventDeclaration<CounterEvent>(
///     feature: "counter",
///     .event("increment", "Adds the step.") { .increment },
///     .event("set", "Sets the count.", .integer("value", "The new count.", example: 5), Self.set))
/// }
/// ```
public struct EventDeclaration<Event: Sendable>: Sendable {
  /// The feature's name, for messages.
  public let feature: String
  public let cases: [EventCase<Event>]
  /// The `type` names, in declaration order.
  public let types: [String]
  /// How events are read from bytes and made, in types that do not depend on `Event`
  /// (decoding runs no generic code but the makers' closures): what `decode(_:soleType:)`
  /// calls, and what a caller keeps that should hold a reference, not the declaration.
  package let reader: EventReader
  /// The declared event of each case of the enum, by the case's tag (`EnumCases.tag(of:)`);
  /// nil when tags cannot be read (not an enum, or built without reflection metadata), and
  /// then an event's case is found by its name. Of types that do not depend on `Event`, so that the
  /// common path runs no generic code.
  let byTag: [TaggedCase]?
  /// How each case is written in code that is not generic, by tag.
  let writers: EventWriters

  public init(feature: String, _ cases: EventCase<Event>...) {
    self.feature = feature
    self.cases = cases
    types = cases.map(\.type)
    var byType: [String: Int] = [:]
    for (index, item) in cases.enumerated() {
      precondition(byType[item.type] == nil, "\(feature): event '\(item.type)' is declared twice")
      byType[item.type] = index
    }
    reader = EventReader(
      feature: feature, types: types, byType: byType,
      fields: cases.map(\.fields), makers: cases.map(\.maker))
    if EnumCases.isReadable(Event.self), let names = EnumCases.names(of: Event.self) {
      byTag = names.map { name in TaggedCase(index: byType[name] ?? -1) }
    } else {
      byTag = nil
    }
    writers = EventWriters(Event.self, byTag: byTag, cases: cases)
  }

  /// The declared event named `type`, or nil.
  public func eventCase(_ type: String) -> EventCase<Event>? {
    reader.byType[type].map { cases[$0] }
  }

  /// Writes `event` as a client sends it, members sorted: `{"type":"set","value":5}`. Its
  /// declared event is found by its case's tag (``EventWriters``): an event without fields is
  /// then bytes written once, without allocating; one with fields reads them back from its
  /// case's payload.
  public func write(_ event: Event, to json: inout JSONWriter) throws {
    try withUnsafePointer(to: event) { event in try write(at: event, into: &json.bytes) }
  }

  /// Appends the JSON of the event at `event`, as ``write(_:to:)`` writes it, to `bytes`: what
  /// a persisted bloc stores with a change the event made. An event found by its case's tag
  /// runs no generic code, so it costs the same called unspecialised.
  public func write(at event: UnsafePointer<Event>, into bytes: inout [UInt8]) throws {
    if try writers.write(at: UnsafeRawPointer(event), into: &bytes) { return }
    try JSONWriter.appending(to: &bytes) { json in
      try write(event.pointee, to: &json, byName: false)
    }
  }

  /// ``write(_:to:)``, the declared event found by the case's tag, or, when `byName` or when
  /// tags cannot be read, by the case's name and its payload read with `Mirror`.
  func write(_ event: Event, to json: inout JSONWriter, byName: Bool) throws {
    guard let index = byName || byTag == nil ? caseIndex(named: event) : caseIndex(of: event)
    else { throw JSONWriter.Unwritable(type: "\(Event.self).\(Self.caseName(event))") }
    try cases[index].write(event, to: &json, byName: byName)
  }

  /// The index in `cases` of `event`'s declared event, by its case's tag; nil when its case
  /// has none.
  func caseIndex(of event: Event) -> Int? {
    guard let byTag else { return caseIndex(named: event) }
    let tag = EnumCases.tag(of: event)
    guard tag < byTag.count, byTag[tag].index >= 0 else { return nil }
    return byTag[tag].index
  }

  /// The index in `cases` of `event`'s declared event, by its case's name (`Mirror`).
  func caseIndex(named event: Event) -> Int? {
    reader.byType[Self.caseName(event)]
  }

  static func caseName(_ event: Event) -> String {
    Mirror(reflecting: event).children.first?.label ?? String(describing: event)
  }

  /// The event `{"type": …, …fields}` at `event` (an object, in a checked document), read
  /// straight from its bytes, or the protocol's reason to refuse it: `type` first (missing,
  /// not a string, unknown), then unknown members, then the fields in declaration order. A
  /// repeated member counts once, with its last value.
  ///
  /// ```swift
  /// try bytes.withUnsafeBytes { bytes in   // {"type":"set","value":5}
  ///   var cursor = JSONCursor(bytes)
  ///   try cursor.readDocument()
  ///   return try CounterEvent.declaration.decode(cursor)  // .set(5)
  /// }
  /// ```
  ///
  /// The reading is not generic (the declaration's `EventReader`); each field's value is read
  /// from the bytes when the field asks for it.
  public func decode(_ event: JSONCursor) throws(EventRefusal) -> Event {
    try decode(event, soleType: event.soleStringMember("type"))
  }

  /// ``decode(_:)`` told by the reader of the bytes what it found in passing: the text of the
  /// event's `type` when the event is that member alone, both written as plain text
  /// (`{"type":"increment"}`, the usual event), else nil; the members are then walked. The
  /// daemon's path for every `send` (its request reader notes the type), through ``reader``.
  package func decode(
    _ event: JSONCursor, soleType: UnsafeRawBufferPointer?
  ) throws(EventRefusal) -> Event {
    try reader.decode(event, soleType: soleType, as: Event.self)
  }

  /// The event for a host that has no bytes (`Codable`): `type` with the members `names`
  /// (other than `type`), each read by `lookup`. Unknown members are refused first.
  func decode(
    type: String, names: [String], _ lookup: (String) -> FieldInput?
  ) throws(EventRefusal) -> Event {
    try reader.decode(type: type, names: names, lookup, as: Event.self)
  }

  /// What is wrong with this declaration against the enum it declares: a case with no declared
  /// event (it could not be encoded nor sent), or a declared `type` that names no case. Empty
  /// when they match one to one; every registered feature is checked by the conformance test.
  public var mismatches: [String] {
    guard let names = EnumCases.names(of: Event.self) else {
      return ["\(Event.self) is not an enum whose cases can be read; declare events on an enum"]
    }
    let undeclared = names.filter { reader.byType[$0] == nil }.map { name in
      "case '\(name)' of \(Event.self) has no declared event: add "
        + ".event(\"\(name)\", …) to \(Event.self).declaration"
    }
    let unmatched = types.filter { !names.contains($0) }.map { type in
      "the declared event '\(type)' names no case of \(Event.self) (its cases: "
        + names.joined(separator: ", ") + "); a declared type is its case's name"
    }
    return undeclared + unmatched
  }
}

/// The declared event of one case of an enum: its index in `cases` (-1: none).
struct TaggedCase: Sendable {
  let index: Int
}

/// An event type whose JSON form, validation and schema come from one ``declaration``.
///
/// `Codable` comes with it: `JSONDecoder` reads an event through the declaration (with the
/// same messages as the daemon), and `JSONEncoder` writes `{"type": <case name>, …fields}`.
/// Each declared `type` is the name of the enum case it makes.
public protocol DeclaredEvent: BlocEvent, Codable, JSONWritable, WritesJSON {
  static var declaration: EventDeclaration<Self> { get }
}
