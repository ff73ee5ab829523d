import AppSearch
import BlocCore
import FeatureKit
import Foundation
import Testing
import Wire

/// FeatureKit on its own: a small declared feature exercising each kind of field.
@Suite struct DeclarationTests {
  enum Shade: String, CaseIterable, Encodable, Sendable { case light, dark }

  enum Note: BlocEvent, Hashable, DeclaredEvent {
    case write(String, Int?)
    case paint(Shade, Bool)
    case erase

    enum Kind: Hashable, Sendable { case any }
    var kind: Kind { .any }

    static let code = StringRule("two letters", pattern: "^[a-z]{2}$") {
      $0.count == 2 && $0.allSatisfy { ("a"..."z").contains($0) }
    }

    static let declaration = EventDeclaration<Note>(
      feature: "notes",
      .event(
        "write", "Writes text.", .string("text", "The text.", rule: code, example: "hi"),
        .optional(.integer("size", "Its size.", minimum: 1, maximum: 9, example: 3)), Note.write),
      .event(
        "paint", "Paints.", .oneOf("shade", "The shade.", Shade.self),
        .boolean("glossy", "Whether glossy.", example: true), Note.paint),
      .event("erase", "Erases.") { .erase })
  }

  struct Page: DeclaredState, Hashable {
    var title = "untitled"
    var words = 0
    var tags: [String] = []
    var author: String?

    static let declaration = StateDeclaration(
      initial: Page(),
      .field("title", \.title, "The title."), .field("words", \.words, "How many words."),
      .field("tags", \.tags, "Tags."), .optional("author", \.author, "Who.", type: .string()))
  }

  func decode(_ type: String, _ fields: [(String, FieldInput)]) throws(EventRefusal) -> Note {
    var event: JSONObject = ["type": .string(type)]
    for (name, value) in fields { event[name] = Self.json(value) }
    return try decode(JSON.object(event).serializedString())
  }

  /// The event in the JSON text `event`, read as the daemon reads it: straight from the bytes.
  func decode(_ event: String) throws(EventRefusal) -> Note {
    let bytes = Array(event.utf8)
    let decoded = bytes.withUnsafeBytes { bytes in
      Result { () throws(EventRefusal) -> Note in
        var cursor = JSONCursor(bytes)
        try? cursor.readDocument()
        return try Note.declaration.decode(cursor)
      }
    }
    return try decoded.get()
  }

  static func json(_ input: FieldInput) -> JSON {
    switch input {
    case .null: .null
    case .bool(let flag): .bool(flag)
    case .integer(let value): .integer(value)
    case .number(let value): .number(value)
    case .string(let text): .string(text)
    case .array(let count): .array(Array(repeating: .null, count: count))
    case .object: .object([:])
    }
  }

  func refusal(_ event: String) -> EventRefusal? {
    do {
      _ = try decode(event)
      return nil
    } catch {
      return error
    }
  }

  func refusal(_ type: String, _ fields: [(String, FieldInput)]) -> EventRefusal? {
    do {
      _ = try decode(type, fields)
      return nil
    } catch {
      return error
    }
  }

  @Test func fieldsReadTheirTypesAndOptionalsReadAbsentOrNullAsNil() throws {
    #expect(try decode("write", [("text", .string("hi"))]) == .write("hi", nil))
    #expect(try decode("write", [("text", .string("hi")), ("size", .null)]) == .write("hi", nil))
    #expect(
      try decode("write", [("size", .integer(3)), ("text", .string("ok"))]) == .write("ok", 3))
    #expect(
      try decode("paint", [("shade", .string("dark")), ("glossy", .bool(false))])
        == .paint(.dark, false))
    #expect(try decode("erase", []) == .erase)
  }

  @Test func refusalsCarryTheProtocolsReasonAndSayWhatIsAccepted() {
    #expect(refusal("scribble", [])?.reason == .unknownEvent)
    #expect(
      refusal("write", [])
        == EventRefusal(
          .missingField,
          #"missing field 'event.text' (string (two letters)): The text. Example: {"type":"write","text":"hi"}"#
        ))
    #expect(
      refusal("write", [("text", .string("HELLO"))])?.message
        == #"field 'event.text' must be string (two letters), got "HELLO""#)
    #expect(
      refusal("write", [("text", .string("hi")), ("size", .integer(10))])?.message
        == "field 'event.size' must be integer 1…9, got 10")
    #expect(
      refusal("paint", [("shade", .string("red")), ("glossy", .bool(true))])?.message
        == #"field 'event.shade' must be one of light | dark, got "red""#)
    #expect(
      refusal("paint", [("shade", .string("dark")), ("glossy", .string("yes"))])?.message
        == #"field 'event.glossy' must be boolean, got "yes""#)
  }

  /// Read from the bytes: members in any order, a repeated one with its last value, `type`
  /// checked first, then unknown members in their order, then the fields in declared order.
  @Test func theDeclarationReadsTheEventStraightFromItsBytes() throws {
    #expect(try decode(#"{"size":3,"text":"ok","type":"write"}"#) == .write("ok", 3))
    #expect(try decode(#"{"type":"write","text":"no","text":"ok"}"#) == .write("ok", nil))
    #expect(
      try decode(#"{"type":"erase","type":"paint","glossy":true,"shade":"dark"}"#)
        == .paint(.dark, true))
    #expect(
      refusal(#"{"text":"ok"}"#)
        == EventRefusal(.missingField, "missing field 'event.type' (one of: write, paint, erase)"))
    #expect(
      refusal(#"{"type":["write"]}"#)
        == EventRefusal(
          .invalidField,
          "field 'event.type' must be a string (one of: write, paint, erase), got array"))
    #expect(refusal(#"{"type":"write","b":1,"a":2}"#)?.message.contains("no field 'b'") == true)
    #expect(
      refusal(#"{"type":"write","size":[1,2]}"#)?.message.contains("missing field 'event.text'")
        == true)
    #expect(
      refusal(#"{"type":"write","text":"ok","size":[1,2]}"#)?.message
        == "field 'event.size' must be integer 1…9, got an array of 2")
  }

  /// An unknown field is reported before a missing or invalid one.
  @Test func unknownFieldsAreRefusedFirst() {
    let refused = refusal("write", [("size", .string("x")), ("colour", .integer(1))])
    #expect(refused?.reason == .invalidField)
    #expect(refused?.message.contains("has no field 'colour'") == true)
    #expect(refused?.message.contains("its fields are text, size") == true)
  }

  @Test func describeShapesComeFromTheDeclaration() {
    let shapes = Note.declaration.shapes
    #expect(shapes.map(\.type) == ["write", "paint", "erase"])
    #expect(shapes[0].example == #"{"type":"write","text":"hi"}"#)
    #expect(shapes[0].fields.map(\.isRequired) == [true, false])
    #expect(shapes[1].fields[0].type == .oneOf(["light", "dark"]))
    #expect(
      FieldType.anyOf([.integer(), .string(), .null]).description == "integer or string or null")
    #expect(FieldType.anyOf([.integer(), .null]).jsonType == "any")
  }

  /// `describe`'s `"effects": true`, and what `statectl replay` compares on shape only.
  @Test func anEventWhoseResultDependsOnTheOutsideWorldIsMarked() {
    #expect(Note.declaration.shapes.map(\.hasEffects) == [false, false, false])
    #expect(
      AppSearchEvent.declaration.shapes.filter(\.hasEffects).map(\.type) == ["search"],
      "a search asks a catalog or the App Store")
  }

  @Test func eventsEncodeByCaseNameAndFields() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    func text(_ note: Note) throws -> String {
      String(decoding: try encoder.encode(note), as: UTF8.self)
    }
    #expect(try text(.write("hi", 3)) == #"{"size":3,"text":"hi","type":"write"}"#)
    #expect(try text(.write("hi", nil)) == #"{"text":"hi","type":"write"}"#)
    #expect(try text(.paint(.light, true)) == #"{"glossy":true,"shade":"light","type":"paint"}"#)
    #expect(try text(.erase) == #"{"type":"erase"}"#)
    let decoded = try JSONDecoder().decode(
      Note.self, from: Data(#"{"type":"write","text":"ok"}"#.utf8))
    #expect(decoded == .write("ok", nil))
  }

  @Test func statesEncodeEveryFieldAndReadMissingOnesFromTheInitialState() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let page = Page(title: "t", words: 3, tags: ["a"], author: nil)
    #expect(
      String(decoding: try encoder.encode(page), as: UTF8.self)
        == #"{"tags":["a"],"title":"t","words":3}"#)
    let older = try JSONDecoder().decode(Page.self, from: Data(#"{"title":"old"}"#.utf8))
    #expect(older == Page(title: "old"))
    #expect(Page.shape.map(\.name) == ["title", "words", "tags", "author"])
    #expect(Page.shape.map(\.isRequired) == [true, true, true, false])
    #expect(Page.shape[2].type == .array(.string()))
  }

  @Test func messagesQuoteLittleOfALongInput() {
    let long = String(repeating: "y", count: 10_000)
    let refused = refusal("paint", [("shade", .string(long)), ("glossy", .bool(true))])
    #expect((refused?.message.count ?? .max) < 150)
    #expect(FieldInput.quoted("a\"b\nc") == #""a\"b\nc""#)
  }
}
