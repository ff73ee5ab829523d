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
  /// Each `type` name's UTF-8, to compare with a request's bytes.
  @usableFromInline let typeBytes: [[UInt8]]
  /// Each `type` name as words (`ShortName`), to find a request's type among them.
  @usableFromInline let typeNames: [ShortName]
  let byType: [String: Int]
  /// Each declared event's fields, by index in `cases`, in a type that does not depend on
  /// `Event` (read on every request).
  let fields: [[FieldShape]]
  /// The declared event of each case of the enum, by the case's tag (`EnumCases.tag(of:)`);
  /// nil when tags cannot be read (not an enum, or built without reflection metadata), and
  /// then an event's case is found by its name. Of types that do not depend on `Event`, so that the
  /// common path runs no generic code.
  let byTag: [TaggedCase]?
  /// How each case is written in code that is not generic, by tag.
  @usableFromInline let writers: EventWriters

  public init(feature: String, _ cases: EventCase<Event>...) {
    self.feature = feature
    self.cases = cases
    types = cases.map(\.type)
    typeBytes = types.map { Array($0.utf8) }
    typeNames = typeBytes.map(ShortName.init)
    fields = cases.map(\.fields)
    var byType: [String: Int] = [:]
    for (index, item) in cases.enumerated() {
      precondition(byType[item.type] == nil, "\(feature): event '\(item.type)' is declared twice")
      byType[item.type] = index
    }
    self.byType = byType
    if EnumCases.isReadable(Event.self), let names = EnumCases.names(of: Event.self) {
      byTag = names.map { name in TaggedCase(index: byType[name] ?? -1) }
    } else {
      byTag = nil
    }
    writers = EventWriters(Event.self, byTag: byTag, cases: cases)
  }

  /// The declared event named `type`, or nil.
  public func eventCase(_ type: String) -> EventCase<Event>? {
    byType[type].map { cases[$0] }
  }

  /// Writes `event` as a client sends it, members sorted: `{"type":"set","value":5}`. Its
  /// declared event is found by its case's tag (``EventWriters``): an event without fields is
  /// then bytes written once, without allocating; one with fields reads them back from its
  /// case's payload.
  public func write(_ event: Event, to json: inout JSONWriter) throws {
    let written = try withUnsafePointer(to: event) { event in
      try writers.write(at: UnsafeRawPointer(event), into: &json.bytes)
    }
    if !written { try write(event, to: &json, byName: false) }
  }

  /// ``write(_:to:)``, the declared event found by the case's tag, or, when `byName` or when
  /// tags cannot be read, by the case's name and its payload read with `Mirror`.
  @usableFromInline
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
    byType[Self.caseName(event)]
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
  /// Inlinable, so that the daemon's path for every event is specialised for `Event`; the
  /// reading itself (``locate(_:)``) is not generic. Each field's value is read from the bytes
  /// when the field asks for it.
  @inlinable
  public func decode(_ event: JSONCursor) throws(EventRefusal) -> Event {
    try decode(event, located: locate(event))
  }

  /// ``decode(_:)`` told by the reader of the bytes what it found in passing: the text of the
  /// event's `type` when the event is that member alone, both written as plain text
  /// (`{"type":"increment"}`, the usual event), else nil; the members are then walked. The
  /// daemon's path for every `send` (its request reader notes the type).
  @inlinable
  package func decode(
    _ event: JSONCursor, soleType: UnsafeRawBufferPointer?
  ) throws(EventRefusal) -> Event {
    // The usual event, its `type` alone: no field to look for, and for an event without
    // fields, its maker called straight (no example string or lookup handed over).
    if let soleType, let index = index(ofType: soleType) {
      if let make = cases[index].make { return make() }
      return try cases[index].build({ _ in nil }, cases[index].example)
    }
    return try decode(event, located: locateMembers(event))
  }

  @inlinable
  func decode(
    _ event: JSONCursor, located: (index: Int, found: FoundFields?)
  ) throws(EventRefusal) -> Event {
    let (index, found) = located
    guard let found else { return try cases[index].build({ _ in nil }, cases[index].example) }
    return try cases[index].build({ name in found.input(name) }, cases[index].example)
  }

  /// The index in `cases` of the declared event whose `type` is `text`'s bytes, or nil.
  @inlinable
  func index(ofType text: UnsafeRawBufferPointer) -> Int? {
    for index in typeNames.indices
    where typeNames[index].spells(text, confirm: { text.hasSameBytes(as: typeBytes[index]) }) {
      return index
    }
    return nil
  }

  /// The index in `cases` of the event at `event` and where its fields' values are (nil when
  /// it has no member but `type`), or the refusal, in ``decode(_:)``'s order. One pass over
  /// the members when `type` comes first and once, as clients write it (its first member tells
  /// the event, the others are its fields); otherwise `type` is looked up first, then the
  /// members are walked again.
  @usableFromInline
  func locate(_ event: JSONCursor) throws(EventRefusal) -> (index: Int, found: FoundFields?) {
    // The usual event, its `type` alone and plain (`{"type":"increment"}`): one short scan.
    if let type = event.soleStringMember("type"), let match = index(ofType: type) {
      return (match, nil)
    }
    return try locateMembers(event)
  }

  /// ``locate(_:)`` by the members' walk alone: for an event that is not its `type` alone
  /// written plainly (as its reader found already).
  @usableFromInline
  func locateMembers(
    _ event: JSONCursor
  ) throws(EventRefusal) -> (index: Int, found: FoundFields?) {
    var index = -1
    var found = FoundFields([])
    var unknown: JSONKey?
    var onePass = true
    event.forEachMember { key, value in
      if key.matches("type") {
        // A `type` after another member, repeated, not a string or unknown: walked again.
        guard index < 0, let match = types.firstIndex(where: { value.isString($0) })
        else {
          onePass = false
          return false
        }
        index = match
        found = FoundFields(fields[match])
      } else if index < 0 {
        onePass = false
        return false
      } else if let field = found.index(of: key) {
        found[field] = value
      } else if unknown == nil {
        unknown = key
      }
      return true
    }
    guard onePass, index >= 0 else {
      let index = try caseIndex(event)
      return (index, try cases[index].locate(event))
    }
    if let unknown { throw cases[index].unknownField(unknown.string) }
    return (index, found)
  }

  /// The index in `cases` of the event's `type`, or the refusal: missing, not a string, or
  /// no such event.
  func caseIndex(_ event: JSONCursor) throws(EventRefusal) -> Int {
    guard let type = event.member("type") else {
      throw EventRefusal(.missingField, "missing field 'event.type' (one of: \(typeList))")
    }
    guard type.isString else {
      throw EventRefusal(
        .invalidField,
        "field 'event.type' must be a string (one of: \(typeList)), got \(type.typeName)")
    }
    // Compared byte by byte with each declared name: no `String` made for a known type.
    for index in types.indices where type.isString(types[index]) { return index }
    throw unknownEvent(type.string ?? "")
  }

  /// The event `type` with the members `names` (other than `type`), each read by `lookup`:
  /// for a host that has no bytes (`Codable`). Unknown members are refused first.
  func decode(
    type: String, names: [String], _ lookup: (String) -> FieldInput?
  ) throws(EventRefusal) -> Event {
    guard let index = byType[type] else { throw unknownEvent(type) }
    let eventCase = cases[index]
    for name in names where name != "type" && !eventCase.declares(name) {
      throw eventCase.unknownField(name)
    }
    return try eventCase.build(lookup, eventCase.example)
  }

  /// The `type` names, for messages: `increment, decrement, reset, set`.
  var typeList: String { types.joined(separator: ", ") }

  /// What is wrong with this declaration against the enum it declares: a case with no declared
  /// event (it could not be encoded nor sent), or a declared `type` that names no case. Empty
  /// when they match one to one; every registered feature is checked by the conformance test.
  public var mismatches: [String] {
    guard let names = EnumCases.names(of: Event.self) else {
      return ["\(Event.self) is not an enum whose cases can be read; declare events on an enum"]
    }
    let undeclared = names.filter { byType[$0] == nil }.map { name in
      "case '\(name)' of \(Event.self) has no declared event: add "
        + ".event(\"\(name)\", …) to \(Event.self).declaration"
    }
    let unmatched = types.filter { !names.contains($0) }.map { type in
      "the declared event '\(type)' names no case of \(Event.self) (its cases: "
        + names.joined(separator: ", ") + "); a declared type is its case's name"
    }
    return undeclared + unmatched
  }

  func unknownEvent(_ type: String) -> EventRefusal {
    EventRefusal(
      .unknownEvent,
      "feature '\(feature)' has no event '\(FieldInput.shortened(type))'; valid types: "
        + types.joined(separator: ", "))
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
