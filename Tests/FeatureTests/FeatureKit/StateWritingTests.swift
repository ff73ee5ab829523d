import BlocCore
import FeatureKit
import Foundation
import Testing
import Wire

/// A declared state writes its fields itself (FeatureKit's StateWriter): stored integers,
/// booleans, strings and doubles by their offset, the rest by each value's own writing, an
/// all-integer-and-boolean state in one piece. Whatever the path, the bytes are the ones each
/// value's own `JSONWritable` writing gives, members sorted by their UTF-8 bytes, and the ones
/// `JSONEncoder` (sorted keys, slashes unescaped) gives.
@Suite struct StateWritingTests {
  enum Shade: String, Codable, Sendable, JSONWritable { case light, dark }

  struct Inner: DeclaredState, Hashable {
    var depth = 0
    var label: String?

    static let declaration = StateDeclaration(
      initial: Inner(), .field("depth", \.depth, "Depth."),
      .optional("label", \.label, "Label.", type: .string()))
  }

  /// Every kind of field, under names whose byte order is not their declaration order.
  struct Every: DeclaredState, Hashable {
    var count = 0
    var wide: Int64 = 0
    var flag = false
    var text = ""
    var ratio = 0.0
    var maybe: Int?
    var left: String?
    var score: Double?
    var tally: Int?
    var big: Int64?
    var on: Bool?
    var list: [Int] = []
    var shade = Shade.light
    var inner = Inner()
    var doubled: Int {
      get { count &* 2 }
      set { count = newValue / 2 }
    }

    static let declaration = StateDeclaration(
      initial: Every(),
      .field("count", \.count, "An Int."),
      .field("Wide", \.wide, "An Int64, upper case: sorted first."),
      .field("flag", \.flag, "A Bool."),
      .field("text", \.text, "A String."),
      .field("ratio", \.ratio, "A Double."),
      .field("maybe", \.maybe, "An Int? written as null.", type: .integer()),
      .optional("left", \.left, "A String? left out when nil.", type: .string()),
      .optional("score", \.score, "A Double? left out when nil.", type: .number),
      .optional("tally", \.tally, "An Int? left out when nil.", type: .integer()),
      .optional("big", \.big, "An Int64? left out when nil.", type: .integer()),
      .optional("on", \.on, "A Bool? left out when nil.", type: .boolean),
      .field("list", \.list, "An array."),
      .field("shade", \.shade, "An enum of strings.", type: .oneOf(["light", "dark"])),
      .field("inner", \.inner, "A nested state.", type: .object(Inner.shape)),
      .field("inner_depth", \.inner.depth, "A stored property inside another."),
      .field("doubled", \.doubled, "A computed property."))
  }

  /// Integers and booleans only: written in one piece.
  struct Fixed: DeclaredState, Hashable {
    var b = 0
    var a: Int64 = 0
    var on = false
    var off = true

    static let declaration = StateDeclaration(
      initial: Fixed(), .field("b", \.b, "B."), .field("a", \.a, "A."),
      .field("on", \.on, "On."), .field("off", \.off, "Off."))
  }

  static func written<Value: DeclaredState>(_ value: Value) throws -> String {
    var json = JSONWriter()
    try value.write(to: &json)
    var stored: [UInt8] = [0x2A]  // appended after what is there
    try value.writeJSON(into: &stored)
    #expect(stored == [0x2A] + json.bytes)
    return String(decoding: json.bytes, as: UTF8.self)
  }

  static func encoded(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  /// The members as each value writes itself, sorted by their UTF-8 bytes: what a declared
  /// state wrote before StateWriter.
  static func reference(_ members: [(String, (any JSONWritable)?)]) throws -> String {
    var json = JSONWriter()
    json.byte(UInt8(ascii: "{"))
    let present = members.compactMap { name, value in value.map { (name, $0) } }
    for (index, (name, value)) in present.sorted(by: {
      $0.0.utf8.lexicographicallyPrecedes($1.0.utf8)
    })
    .enumerated() {
      if index > 0 { json.byte(UInt8(ascii: ",")) }
      json.key(name)
      try value.write(to: &json)
    }
    json.byte(UInt8(ascii: "}"))
    return String(decoding: json.bytes, as: UTF8.self)
  }

  static func reference(_ every: Every) throws -> String {
    try reference([
      ("count", every.count), ("Wide", every.wide), ("flag", every.flag), ("text", every.text),
      ("ratio", every.ratio), ("maybe", every.maybe as any JSONWritable), ("left", every.left),
      ("score", every.score), ("tally", every.tally), ("big", every.big), ("on", every.on),
      ("list", every.list),
      ("shade", every.shade), ("inner", every.inner), ("inner_depth", every.inner.depth),
      ("doubled", every.doubled),
    ])
  }

  @Test func everyKindOfFieldWritesAsItsOwnValueDoes() throws {
    let states = [
      Every(),
      Every(
        count: -42, wide: .min, flag: true, text: "a/b \"q\" \\ \n\t\u{1} Ünï", ratio: 2.5,
        maybe: 7, left: "here", list: [1, -2, 3], shade: .dark,
        inner: Inner(depth: 9, label: "in")),
      Every(count: .max, wide: .max, ratio: 5.0, maybe: 0, left: ""),
      Every(score: 2.5, tally: -3, big: .min, on: false),
      Every(score: 4.0, tally: 0, big: .max, on: true),
      Every(score: 1e-7),
      Every(count: .min, ratio: 1e-7),
      Every(count: 9, ratio: 1e20, inner: Inner(depth: -1)),
      Every(ratio: 0.1),
      Every(ratio: -0.0),
    ]
    for state in states {
      let written = try Self.written(state)
      #expect(written == (try Self.reference(state)))
      // -0.0: written `-0.0` as it always was, where JSONEncoder writes `-0`.
      if state.ratio == 0, state.ratio.sign == .minus { continue }
      #expect(written == (try Self.encoded(state)), "\(state)")
    }
    #expect(
      try Self.written(states[1])
        == #"{"Wide":-9223372036854775808,"count":-42,"doubled":-84,"flag":true,"#
        + #""inner":{"depth":9,"label":"in"},"inner_depth":9,"left":"here","list":[1,-2,3],"#
        + #""maybe":7,"ratio":2.5,"shade":"dark","text":"a/b \"q\" \\ \n\t\u0001 Ünï"}"#)
    #expect(
      try Self.written(Every())
        == #"{"Wide":0,"count":0,"doubled":0,"flag":false,"inner":{"depth":0},"inner_depth":0,"#
        + #""list":[],"maybe":null,"ratio":0,"shade":"light","text":""}"#)
  }

  @Test func aStateOfIntegersAndBooleansIsWrittenInOnePiece() throws {
    for fixed in [
      Fixed(), Fixed(b: .max, a: .min, on: true, off: false), Fixed(b: .min, a: .max),
      Fixed(b: 9, a: 10), Fixed(b: 99, a: 100), Fixed(b: -1, a: -10),
    ] {
      let written = try Self.written(fixed)
      #expect(
        written
          == (try Self.reference([
            ("b", fixed.b), ("a", fixed.a), ("on", fixed.on), ("off", fixed.off),
          ])))
      #expect(written == (try Self.encoded(fixed)))
    }
    #expect(
      try Self.written(Fixed(b: .max, a: .min, on: true, off: false))
        == #"{"a":-9223372036854775808,"b":9223372036854775807,"off":false,"on":true}"#)
  }

  @Test func aNonFiniteDoubleIsRefused() {
    #expect(throws: JSONWriter.NonFinite.self) { try Self.written(Every(ratio: .nan)) }
    #expect(throws: JSONWriter.NonFinite.self) { try Self.written(Every(ratio: -.infinity)) }
  }
}
