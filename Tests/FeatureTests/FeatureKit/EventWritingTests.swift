import AppSearch
import BlocCore
import Counter
import Foundation
import Settings
import Testing
import Wire

@testable import FeatureKit

/// How a declared event is written (what the journal stores with each change and `monitor`
/// shows): its declared event found by its case's tag, no `Mirror`, and the same bytes as by
/// the case's name (`Mirror`, the way used when tags cannot be read) and as `JSONEncoder`.
@Suite struct EventWritingTests {
  /// Every declared event of the features, as a client sends it: members sorted, compact.
  static let counterEvents = [
    #"{"type":"increment"}"#, #"{"type":"decrement"}"#, #"{"type":"reset"}"#,
    #"{"type":"set","value":5}"#, #"{"type":"set","value":-9223372036854775808}"#,
  ]
  static let settingsEvents = [
    #"{"key":"searchLimit","type":"set","value":50}"#,
    #"{"key":"searchBackend","type":"set","value":"itunes"}"#,
    #"{"key":"searchCountry","type":"set","value":"d\"e\\"}"#,
    #"{"key":"counterMinimum","type":"set","value":null}"#,
    #"{"key":"counterStep","type":"reset"}"#, #"{"type":"resetAll"}"#,
  ]
  static let searchEvents = [
    #"{"term":"maps","type":"search"}"#, #"{"term":"","type":"search"}"#,
    #"{"id":42,"type":"toggleMark"}"#, #"{"type":"clear"}"#, #"{"type":"clearMarks"}"#,
  ]

  @Test(arguments: counterEvents) func counterEventsWriteBackTheirBytes(text: String) throws {
    try expectWrittenBack(text, as: CounterEvent.self)
  }

  @Test(arguments: settingsEvents) func settingsEventsWriteBackTheirBytes(text: String) throws {
    try expectWrittenBack(text, as: SettingsEvent.self)
  }

  @Test(arguments: searchEvents) func searchEventsWriteBackTheirBytes(text: String) throws {
    try expectWrittenBack(text, as: AppSearchEvent.self)
  }

  /// An event is read in one pass when `type` comes first and once; in any other order it
  /// reads the same, and is refused the same.
  @Test(arguments: [
    (#"{"type":"set","value":5}"#, "set(5)"),
    (#"{"value":5,"type":"set"}"#, "set(5)"),
    (#"{"type":"set","value":1,"value":5}"#, "set(5)"),
    (#"{"ty\u0070e":"incr\u0065ment"}"#, "increment"),
    (#"{"type":"increment","type":"reset"}"#, "reset"),
    (
      #"{"type":"set","value":5,"type":"reset"}"#,
      "event 'reset' has no field 'value' (at 'event.value'); it takes no fields"
    ),
    (
      #"{"type":"set","by":1,"type":7}"#,
      "field 'event.type' must be a string (one of: increment, decrement, reset, set), got number"
    ),
    (
      #"{"type":"set","by":1,"value":2,"to":3}"#,
      "event 'set' has no field 'by' (at 'event.by'); its fields are value"
    ),
    (
      #"{"by":1,"type":"set"}"#,
      "event 'set' has no field 'by' (at 'event.by'); its fields are value"
    ),
    (
      #"{"type":"jump","by":1}"#,
      "feature 'counter' has no event 'jump'; valid types: increment, decrement, reset, set"
    ),
    (#"{"value":5}"#, "missing field 'event.type' (one of: increment, decrement, reset, set)"),
  ])
  func membersReadInAnyOrder(text: String, outcome: String) {
    let read = Array(text.utf8).withUnsafeBytes { bytes in
      Result { () throws(EventRefusal) -> CounterEvent in
        var cursor = JSONCursor(bytes)
        try? cursor.readDocument()
        return try CounterEvent.declaration.decode(cursor)
      }
    }
    switch read {
    case .success(let event): #expect("\(event)" == outcome)
    case .failure(let refusal): #expect(refusal.message == outcome)
    }
  }

  @Test func everyDeclaredEventIsCoveredAndItsTagNamesItsCase() throws {
    try expectCovered(CounterEvent.self, Self.counterEvents)
    try expectCovered(SettingsEvent.self, Self.settingsEvents)
    try expectCovered(AppSearchEvent.self, Self.searchEvents)
  }

  @Test func aPayloadThatIsExactlyTheFieldsIsReadInPlace() {
    #expect(readsInPlace(CounterEvent.self, "set") == true)
    #expect(readsInPlace(AppSearchEvent.self, "search") == true)
    #expect(readsInPlace(AppSearchEvent.self, "toggleMark") == true)
    #expect(readsInPlace(SettingsEvent.self, "reset") == true)
    #expect(readsInPlace(Packed.self, "pair") == true)
    #expect(readsInPlace(Packed.self, "triple") == true)
    // A value declared optional carried unwrapped, the optional of the same layout (a
    // SettingValue, a String: nil is a spare bit pattern): read in place as the optional.
    #expect(readsInPlace(SettingsEvent.self, "set") == true)
    #expect(readsInPlace(Packed.self, "note") == true)
    #expect(readsInPlace(Packed.self, "tagged") == true)
    // Carried otherwise than declared (a value declared optional of another layout, an Int
    // whose optional takes a byte more; a labelled tuple; another type), or boxed: read with
    // Mirror.
    #expect(readsInPlace(Skewed.self, "pair") == false)
    #expect(readsInPlace(Skewed.self, "widened") == false)
    #expect(readsInPlace(Skewed.self, "set") == false)
    #expect(readsInPlace(Packed.self, "boxed") == false)
  }

  @Test(arguments: [
    Packed.pair("a", 1), .pair(String(repeating: "long ", count: 9), -2),
    .triple(true, nil, .max), .triple(false, "x\ny", 0), .boxed(7), .empty, .note("n"),
    .note(""), .tagged(-3, "t"), .tagged(0, ""),
  ])
  func payloadsReadInPlaceWriteWhatMirrorReads(event: Packed) throws {
    var byTag = JSONWriter()
    var byName = JSONWriter()
    for _ in 0..<3 {
      byTag.bytes.removeAll()
      byName.bytes.removeAll()
      try event.write(to: &byTag)
      try Packed.declaration.write(event, to: &byName, byName: true)
      #expect(byTag.bytes == byName.bytes)
    }
    #expect(try json(event) == String(decoding: byTag.bytes, as: UTF8.self))
    let text = String(decoding: byTag.bytes, as: UTF8.self)
    let decoded = try Array(text.utf8).withUnsafeBytes { bytes in
      var cursor = JSONCursor(bytes)
      try cursor.readDocument()
      return try Packed.declaration.decode(cursor)
    }
    #expect(decoded == event)
  }

  /// Fields of every kind the event writer reads in place (a string with a rule, an optional
  /// integer, an enum of strings, a boolean): the same bytes as by the case's name (`Mirror`
  /// and each field's own writing), appended after what is there.
  @Test(arguments: [
    (DeclarationTests.Note.write("hi", 3), #"{"size":3,"text":"hi","type":"write"}"#),
    (.write("hi", nil), #"{"text":"hi","type":"write"}"#),
    (.write("q\"\n", .min), #"{"size":-9223372036854775808,"text":"q\"\n","type":"write"}"#),
    (.paint(.light, true), #"{"glossy":true,"shade":"light","type":"paint"}"#),
    (.paint(.dark, false), #"{"glossy":false,"shade":"dark","type":"paint"}"#),
    (.erase, #"{"type":"erase"}"#),
  ])
  func fieldsOfEveryKindWriteWhatMirrorReads(event: DeclarationTests.Note, text: String) throws {
    var byName = JSONWriter()
    try DeclarationTests.Note.declaration.write(event, to: &byName, byName: true)
    var stored: [UInt8] = [0x2A]
    try event.writeJSON(into: &stored)
    #expect(stored == [0x2A] + byName.bytes)
    #expect(String(decoding: byName.bytes, as: UTF8.self) == text)
  }

  /// Fields all of bounded length, written in one piece: optional ones left out wherever they
  /// sort, before `type` or after it.
  @Test(arguments: [
    (Bounded.pick(nil, nil, true), #"{"type":"pick","z":true}"#),
    (.pick(1, .dark, false), #"{"a":1,"shade":"dark","type":"pick","z":false}"#),
    (.pick(nil, .light, true), #"{"shade":"light","type":"pick","z":true}"#),
    (.pick(.min, nil, false), #"{"a":-9223372036854775808,"type":"pick","z":false}"#),
  ])
  func boundedFieldsWriteWhatMirrorReads(event: Bounded, text: String) throws {
    var byName = JSONWriter()
    try Bounded.declaration.write(event, to: &byName, byName: true)
    var stored: [UInt8] = [0x2A]
    try event.writeJSON(into: &stored)
    #expect(stored == [0x2A] + byName.bytes)
    #expect(String(decoding: byName.bytes, as: UTF8.self) == text)
    #expect(EnumCases.isReadableOptional(Int?.self))
    #expect(EnumCases.isReadableOptional(DeclarationTests.Shade?.self))
    #expect(!EnumCases.isReadableOptional(Int.self))
  }

  @Test func aCaseTheTagsCannotReadIsFoundByName() throws {
    // Not an enum: no tags, so its case is looked up by name as before (and, having none
    // declared, it cannot be written).
    #expect(!EnumCases.isReadable(Loose.self))
    #expect(Loose.declaration.byTag == nil)
    var json = JSONWriter()
    #expect(throws: JSONWriter.Unwritable.self) { try Loose(type: "one").write(to: &json) }
    #expect(!EnumCases.isReadable(Int.self))
    #expect(!EnumCases.isReadable(CounterEvent?.self))
  }

  @Test func payloadsDeclaredOtherwiseButCastableAreWritten() throws {
    #expect(
      try written(Skewed.pair(label: "a", count: 2)) == #"{"count":2,"label":"a","type":"pair"}"#)
    #expect(try written(Skewed.widened(3)) == #"{"by":3,"type":"widened"}"#)
    #expect(try written(Skewed.plain(7)) == #"{"type":"plain"}"#)
    #expect(
      try json(Skewed.pair(label: "a", count: 2)) == #"{"count":2,"label":"a","type":"pair"}"#)
  }

  @Test func aPayloadThatIsNotTheDeclaredFieldsIsRefusedClearly() throws {
    let message =
      "the event 'set' of Skewed carries Int, not its declared fields' values (String): "
      + "declare the fields its case carries, in their order"
    for byName in [false, true] {
      var json = JSONWriter()
      #expect {
        try Skewed.declaration.write(.set(1), to: &json, byName: byName)
      } throws: { error in
        "\(error)" == message
      }
    }
    #expect {
      try json(Skewed.set(1))
    } throws: { error in
      guard case .invalidValue(_, let context) = error as? EncodingError else { return false }
      return context.debugDescription == message
    }
    // Its bytes are left as they were: the journal stores the change without its event.
    var bytes = Array("x".utf8)
    #expect(throws: PayloadMismatch.self) { try Skewed.set(1).writeJSON(into: &bytes) }
    #expect(try written(Skewed.missing) == nil)
  }

  /// Decodes `text` as the daemon does, then writes it by tag, by name and with
  /// `JSONEncoder`: the same bytes each time.
  func expectWrittenBack<Event: DeclaredEvent>(
    _ text: String, as _: Event.Type, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let event = try Array(text.utf8).withUnsafeBytes { bytes in
      var cursor = JSONCursor(bytes)
      try cursor.readDocument()
      return try Event.declaration.decode(cursor)
    }
    #expect(Event.declaration.byTag != nil, sourceLocation: sourceLocation)
    #expect(
      Event.declaration.caseIndex(of: event) == Event.declaration.caseIndex(named: event),
      sourceLocation: sourceLocation)
    for byName in [false, true] {
      var json = JSONWriter()
      if byName {
        try Event.declaration.write(event, to: &json, byName: true)
      } else {
        try event.write(to: &json)
      }
      #expect(String(decoding: json.bytes, as: UTF8.self) == text, sourceLocation: sourceLocation)
    }
    var stored = Array("prefix".utf8)
    try event.writeJSON(into: &stored)
    #expect(String(decoding: stored, as: UTF8.self) == "prefix" + text)
    #expect(try json(event) == text, sourceLocation: sourceLocation)
  }

  /// Each declared event has an example in `texts`.
  func expectCovered<Event: DeclaredEvent>(_: Event.Type, _ texts: [String]) throws {
    let types = try Set(texts.map { text in try decode(TypeOnly.self, text).type })
    #expect(types == Set(Event.declaration.types))
  }

  /// Whether the declared event `type` reads its fields from the payload in place.
  func readsInPlace<Event: DeclaredEvent>(_: Event.Type, _ type: String) -> Bool? {
    Event.declaration.eventCase(type)?.values?.readsInPlace
  }

  /// The bytes `write(to:)` writes, or nil when it throws.
  func written<Event: DeclaredEvent>(_ event: Event) throws -> String? {
    var json = JSONWriter()
    guard (try? event.write(to: &json)) != nil else { return nil }
    return String(decoding: json.bytes, as: UTF8.self)
  }

  struct TypeOnly: Decodable { let type: String }
}

/// An enum whose cases carry other values than their declared fields: a labelled tuple, a
/// value declared optional, a payload a field-less event ignores, a value of another type, a
/// case with no declared event.
enum Skewed: DeclaredEvent, Hashable {
  case set(Int)
  case pair(label: String, count: Int)
  case widened(Int)
  case plain(Int)
  case missing

  static let declaration = EventDeclaration<Skewed>(
    feature: "skewed",
    .event("set", "Sets.", .string("value", "A text.", example: "a")) { _ in .set(1) },
    .event(
      "pair", "Pairs.", .string("label", "A label.", example: "a"),
      .integer("count", "A count.", example: 1)
    ) { label, count in .pair(label: label, count: count) },
    .event("widened", "Widens.", .optional(.integer("by", "By.", example: 1))) { by in
      .widened(by ?? 0)
    },
    .event("plain", "Plain.") { .plain(0) })
}

/// A declared event that is not an enum: its case is found by name (`Mirror`).
struct Loose: DeclaredEvent, Hashable {
  var type: String

  static let declaration = EventDeclaration<Loose>(
    feature: "loose", .event("one", "One.") { Loose(type: "one") })
}

/// An enum whose payloads are exactly its declared fields: tuples with references and spare
/// bits (a multi-payload enum stores its tag in them), and a boxed (`indirect`) case.
enum Bounded: DeclaredEvent, Hashable {
  case pick(Int?, DeclarationTests.Shade?, Bool)

  static let declaration = EventDeclaration<Bounded>(
    feature: "bounded",
    .event(
      "pick", "Picks.", .optional(.integer("a", "A.", example: 1)),
      .optional(.oneOf("shade", "A shade.", DeclarationTests.Shade.self)),
      .boolean("z", "Z.", example: true), Bounded.pick))
}

enum Packed: DeclaredEvent, Hashable {
  case pair(String, Int)
  case triple(Bool, String?, Int64)
  indirect case boxed(Int)
  case empty
  /// Declared optional, carried unwrapped (a `String?` is the size of a `String`).
  case note(String)
  case tagged(Int, String)

  static let declaration = EventDeclaration<Packed>(
    feature: "packed",
    .event(
      "pair", "Pairs.", .string("text", "A text.", example: "a"),
      .integer("count", "A count.", example: 1), Packed.pair),
    .event(
      "triple", "Three.", .boolean("flag", "A flag.", example: true),
      .optional(.string("note", "A note.", example: "n")),
      .integer64("big", "A big one.", example: 1), Packed.triple),
    .event("boxed", "Boxed.", .integer("value", "A value.", example: 1), Packed.boxed),
    .event("empty", "Nothing.") { .empty },
    .event("note", "A note.", .optional(.string("text", "A text.", example: "n"))) { text in
      .note(text ?? "")
    },
    .event(
      "tagged", "Tagged.", .integer("count", "A count.", example: 1),
      .optional(.string("text", "A text.", example: "n"))
    ) { count, text in .tagged(count, text ?? "") })
}
