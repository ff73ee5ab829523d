// StateEncoder builds a state's JSON without JSONEncoder: its output must be exactly what
// JSONEncoder with sorted keys writes (what storage keeps), read back by Wire's parser, for
// every feature's state; and a stored file carries the same JSON as the wire.
import AppSearch
import BlocCore
import Counter
import Foundation
import Settings
import Testing
import Wire

@testable import StateServer

@Suite struct StateEncoderTests {
  private func expectSameAsFoundation<S: Encodable & Sendable>(
    _ state: S, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let direct = try StateEncoder.encode(state).serializedString()
    let reference = try Self.encodeWithFoundation(state).serializedString()
    #expect(direct == reference, sourceLocation: sourceLocation)
  }

  /// `JSONEncoder` (sorted keys), read back with Wire's parser: the reference form.
  static func encodeWithFoundation<S: Encodable>(_ state: S) throws -> JSON {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = try encoder.encode(state)
    return try data.withUnsafeBytes { try JSONParser().parse($0) }
  }

  @Test func counterStates() throws {
    for count in [0, 1, -1, 42, Int.max, Int.min] {
      try expectSameAsFoundation(CounterState(count: count))
    }
  }

  @Test func settingsStates() throws {
    try expectSameAsFoundation(SettingsState.defaults)
    let custom = try SettingsState.defaults
      .setting(.counterStep, to: .integer(5))
      .setting(.counterMinimum, to: .integer(-10))
      .setting(.counterMaximum, to: .integer(100))
      .setting(.searchCountry, to: .string("de"))
      .setting(.searchBackend, to: .string("itunes"))
    try expectSameAsFoundation(custom)
  }

  @Test func appSearchStates() throws {
    try expectSameAsFoundation(AppSearchState())
    let apps = [
      App(id: 42, name: "Maps", genre: "Navigation"),
      App(
        id: 7, name: "Ünïcødé \"quoted\" \\ back/slash\n", version: "1.0", genre: "Games",
        developer: "Dev <dev@example.org>", summary: "Tabs\tand control \u{1}",
        url: "https://apps.apple.com/us/app/x/id7?mt=8", rating: 4.5),
      App(id: -3, name: "Integral", rating: 4.0),
      App(id: App.maximumID, name: "Tiny", rating: 0.1),
      App(id: 9, name: "Precise", rating: 3.141592653589793),
      App(id: 10, name: "Zero", rating: 0),
      App(id: 11, name: "Large", rating: 1e20),
      App(id: 12, name: "Small", rating: 1e-7),
    ]
    try expectSameAsFoundation(
      AppSearchState(
        term: "maps", results: apps,
        marks: [
          Mark(id: 42, name: "Maps", backend: .itunes), Mark(id: 7, name: nil, backend: nil),
          Mark(id: 1, name: "bash", backend: .packages),
        ], activity: .loading))
    try expectSameAsFoundation(
      AppSearchState(term: "x", activity: .failed("network \"down\" / retry")))
    try expectSameAsFoundation(AppSearchState(term: "", activity: .idle))
  }

  @Test func doublesAndIntegersLikeJSONEncoder() throws {
    struct Numbers: Encodable, Sendable {
      var values: [Double]
      var floats: [Float]
      var unsigned: [UInt64]
      var small: [Int8]
    }
    try expectSameAsFoundation(
      Numbers(
        values: [
          0, -0.0, 1, -1, 2.5, 1e15, 9_999_999_999_999_998, 9_007_199_254_740_991,
          9_007_199_254_740_992, 9_007_199_254_740_994, 18_014_398_509_481_984,
          -4_503_599_627_370_497, 1e16, 1e300, .leastNonzeroMagnitude,
          123.456,
        ],
        floats: [0.1, 1, 3.4e38, -2.5],
        unsigned: [0, UInt64(Int64.max), UInt64.max],
        small: [-128, 127]))
  }

  @Test func nestedContainersAndOptionals() throws {
    struct Inner: Codable, Sendable {
      var b: Int?
      var a: [String: Int]
    }
    struct Outer: Codable, Sendable {
      enum CodingKeys: String, CodingKey {
        case zeta, upper = "Alpha", alpha, empty
      }
      var zeta: [Inner]
      var upper: Inner?
      var alpha: String?
      var empty: [Int]
    }
    try expectSameAsFoundation(
      Outer(
        zeta: [Inner(b: nil, a: ["y": 1, "x": 2]), Inner(b: 3, a: [:])],
        upper: Inner(b: 1, a: ["k": 0]), alpha: nil, empty: []))
  }

  /// Declared events encode to the JSON a client sends (what `monitor` shows).
  @Test func declaredEventsEncodeAsSent() throws {
    #expect(try StateEncoder.encode(CounterEvent.set(5)) == ["type": "set", "value": 5])
    #expect(try StateEncoder.encode(CounterEvent.increment) == ["type": "increment"])
    #expect(
      try StateEncoder.encode(SettingsEvent.set(.counterMaximum, nil))
        == ["type": "set", "key": "counterMaximum", "value": .null])
    #expect(
      try StateEncoder.encode(AppSearchEvent.toggleMark(42)) == ["type": "toggleMark", "id": 42])
    #expect(try StateEncoder.encode(AppSearchEvent.clearMarks) == ["type": "clearMarks"])
  }

  @Test func typesWithoutOneJSONFormAreRefused() throws {
    struct Stamped: Codable, Sendable {
      var at: Date
      var blob: Data
    }
    let state = Stamped(at: Date(timeIntervalSinceReferenceDate: 12.5), blob: Data([1, 2, 3]))
    #expect(throws: StateEncoder.Unsupported.self) { try StateEncoder.encode(state) }
  }

  /// Issue 7: persistence files and the wire carry the same JSON for the same state.
  @Test func aStoredStateIsTheJSONTheWireCarries() async throws {
    let storage = InMemoryStorage()
    let settings = SettingsBloc(storage: storage)
    await settings.send(.set(.searchCountry, "de"))
    await settings.send(.set(.counterMaximum, 10))
    let counter = CounterBloc(storage: storage)
    await counter.send(.set(-3))
    for (key, wire) in [
      ("settings", try StateEncoder.encode(settings.state)),
      ("counter", try StateEncoder.encode(counter.state)),
    ] {
      let data = try #require(storage.contents[key])
      let stored = try data.withUnsafeBytes { try JSONParser().parse($0) }
      #expect(stored["state"] == wire, "\(key)")
    }
    await counter.close()
    await settings.close()
  }

  /// Issue 7: state files written before the declarations (today's format) still load.
  @Test func stateFilesOfTheFormerFormatLoad() async throws {
    let storage = InMemoryStorage([
      "counter": Data(#"{"schemaVersion":1,"state":{"count":41}}"#.utf8),
      "settings": Data(
        (#"{"schemaVersion":1,"state":{"counterMaximum":50,"counterMinimum":null,"#
          + #""counterStep":5,"searchBackend":"itunes","searchCountry":"se","searchLimit":20,"#
          + #""searchThrottleMs":200}}"#).utf8),
      "search-marks": Data(#"{"schemaVersion":1,"state":{"marks":[7,42]}}"#.utf8),
    ])
    let settings = SettingsBloc(storage: storage)
    let counter = CounterBloc(storage: storage)
    let search = AppSearchBloc(storage: storage)
    #expect(settings.restoreIssue == nil && counter.restoreIssue == nil)
    #expect(storage.contents.keys.count == 3, "nothing was kept aside")
    #expect(counter.state.count == 41)
    #expect(settings.state.counterStep == 5 && settings.state.counterMaximum == 50)
    #expect(settings.state.searchBackend == .itunes && settings.state.searchCountry == "se")
    #expect(search.state.markedIDs == [7, 42])
    await search.close()
    await counter.close()
    await settings.close()
  }
}
