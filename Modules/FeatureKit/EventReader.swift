import WireJSON

/// How a feature's events are read from a request's bytes, prepared once by its
/// ``EventDeclaration``, in types that do not depend on the event's: finding the declared
/// event (a `type` name to its index, by words), where its fields are, and the refusals run
/// no generic code; the event is then made by its case's ``EventMaker``, whose closures were
/// made where the event's type is known. So the daemon's path for every `send` may call it
/// unspecialised and look up no generic metadata. A class, so that its functions are handed
/// one reference, not its fields, and a closure that keeps it keeps no generic value (reading
/// a captured `EventDeclaration<Event>` looks up that type's metadata).
package final class EventReader: Sendable {
  /// The feature's name, for messages.
  let feature: String
  /// The `type` names, in declaration order.
  let types: [String]
  /// Each `type` name's UTF-8, to compare with a request's bytes.
  private let typeBytes: [[UInt8]]
  /// Each `type` name as words (`ShortName`), to find a request's type among them.
  private let typeNames: [ShortName]
  /// Each `type` name's index.
  let byType: [String: Int]
  /// Each declared event's fields, by index.
  private let fields: [[FieldShape]]
  /// Each declared event's ``EventMaker``, by index, as `AnyObject`: found without naming a
  /// generic type.
  private let makers: [any AnyObject & Sendable]

  init(
    feature: String, types: [String], byType: [String: Int], fields: [[FieldShape]],
    makers: [any AnyObject & Sendable]
  ) {
    self.feature = feature
    self.types = types
    typeBytes = types.map { Array($0.utf8) }
    typeNames = typeBytes.map(ShortName.init)
    self.byType = byType
    self.fields = fields
    self.makers = makers
  }

  /// `EventDeclaration.decode(_:soleType:)`, for the declaration of `Event` this reader was
  /// made by: the daemon's path for every `send`. Called unspecialised, it looks up no generic
  /// metadata: the reading is not generic, and the event is made by its case's maker, whose
  /// closures were made where `Event` is known.
  package func decode<Event>(
    _ event: JSONCursor, soleType: UnsafeRawBufferPointer?, as _: Event.Type
  ) throws(EventRefusal) -> Event {
    // The usual event, its `type` alone: no field to look for.
    if let soleType, let index = index(ofType: soleType) {
      return try maker(index, Event.self).make()
    }
    let (index, found) = try locateMembers(event)
    return try maker(index, Event.self).event(found)
  }

  /// The event `type` with the members `names` (other than `type`), each read by `lookup`:
  /// for a host that has no bytes (`Codable`). Unknown members are refused first.
  func decode<Event>(
    type: String, names: [String], _ lookup: (String) -> FieldInput?, as _: Event.Type
  ) throws(EventRefusal) -> Event {
    try maker(index(type: type, names: names), Event.self).build(lookup)
  }

  /// The maker of the declared event at `index`, read back as what it is (no generic
  /// metadata looked up: an object's type is known from itself).
  private func maker<Event>(_ index: Int, _: Event.Type) -> EventMaker<Event> {
    unsafeDowncast(makers[index], to: EventMaker<Event>.self)
  }

  /// The index of the declared event `type`, for an event with the members `names` (other
  /// than `type`): for a host that has no bytes (`Codable`). Unknown members are refused.
  private func index(type: String, names: [String]) throws(EventRefusal) -> Int {
    guard let index = byType[type] else { throw unknownEvent(type) }
    for name in names where name != "type" && !fields[index].contains(where: { $0.name == name }) {
      throw unknownField(name, of: index)
    }
    return index
  }

  /// The index of the declared event whose `type` is `text`'s bytes, or nil: the usual
  /// event's, its `type` alone (no field to look for).
  private func index(ofType text: UnsafeRawBufferPointer) -> Int? {
    for index in typeNames.indices
    where typeNames[index].spells(text, confirm: { text.hasSameBytes(as: typeBytes[index]) }) {
      return index
    }
    return nil
  }

  /// The index of the event at `event` and where its fields' values are (nil when it has no
  /// member but `type`), or the refusal: `type` first (missing, not a string, unknown), then
  /// unknown members, then the fields in declaration order. For an event that is not its
  /// `type` alone written plainly (``index(ofType:)`` finds that one). One pass over the
  /// members when `type` comes first and once, as clients write it (its first member tells
  /// the event, the others are its fields); otherwise `type` is looked up first, then the
  /// members are walked again.
  private func locateMembers(
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
      return (index, try locate(event, of: index))
    }
    if let unknown { throw unknownField(unknown.string, of: index) }
    return (index, found)
  }

  /// Where each field of the declared event at `index` is in the event object at `event` (a
  /// repeated member: its last value), refusing the first member that is not a field, in
  /// their order, before anything else is checked.
  private func locate(_ event: JSONCursor, of index: Int) throws(EventRefusal) -> FoundFields {
    var found = FoundFields(fields[index])
    var unknown: JSONKey?
    event.forEachMember { key, value in
      if let field = found.index(of: key) {
        found[field] = value
      } else if !key.matches("type") {
        unknown = key
        return false
      }
      return true
    }
    if let unknown { throw unknownField(unknown.string, of: index) }
    return found
  }

  /// The index of the event's `type`, or the refusal: missing, not a string, or no such
  /// event.
  private func caseIndex(_ event: JSONCursor) throws(EventRefusal) -> Int {
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

  /// The `type` names, for messages: `increment, decrement, reset, set`.
  private var typeList: String { types.joined(separator: ", ") }

  func unknownEvent(_ type: String) -> EventRefusal {
    EventRefusal(
      .unknownEvent,
      "feature '\(feature)' has no event '\(FieldInput.shortened(type))'; valid types: "
        + types.joined(separator: ", "))
  }

  /// The refusal of `member` in an event of the declared event at `index`.
  private func unknownField(_ member: String, of index: Int) -> EventRefusal {
    let fields = fields[index]
    let accepted =
      fields.isEmpty
      ? "it takes no fields"
      : "its fields are " + fields.map(\.name).joined(separator: ", ")
    let name = FieldInput.shortened(member)
    return EventRefusal(
      .invalidField,
      "event '\(types[index])' has no field '\(name)' (at 'event.\(name)'); \(accepted)")
  }
}

/// How an event of one declared type is made, kept by the declaration as an `AnyObject` (so
/// that no generic type is named to find it) and read back as what it is: its closures were
/// made where `Event` is known.
final class EventMaker<Event>: Sendable {
  /// Makes the event without fields to read: straight when it has none, else from its fields'
  /// absent values.
  let make: @Sendable () throws(EventRefusal) -> Event
  /// Makes the event from its fields, each looked up by name (nil when absent).
  let build: @Sendable ((String) -> FieldInput?) throws(EventRefusal) -> Event

  init(
    make: (@Sendable () -> Event)?,
    build: @escaping @Sendable ((String) -> FieldInput?) throws(EventRefusal) -> Event
  ) {
    if let make {
      self.make = make
    } else {
      self.make = { () throws(EventRefusal) in try build { _ in nil } }
    }
    self.build = build
  }

  /// The event from the fields found (nil: none to read).
  func event(_ found: FoundFields?) throws(EventRefusal) -> Event {
    guard let found else { return try make() }
    return try build { name in found.input(name) }
  }
}
