// A declared state writes its JSON itself (its declaration, WireJSON's JSONWriter), with no
// Encoder: its output must read back as what JSONEncoder with sorted keys writes (the text
// states were always stored and sent in), for every feature's state; and a stored record
// carries the same bytes as the wire.
import AppSearch
import BlocCore
import Counter
import FeatureKit
import Foundation
import Settings
import Testing
import Wire

@testable import StateServer

@Suite struct StateWriterTests {
  private func expectSameAsFoundation<S: Encodable & Sendable & JSONWritable>(
    _ state: S, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let direct = try JSONParser().parse(Self.written(state)).serializedString()
    let reference = try Self.encodeWithFoundation(state).serializedString()
    #expect(direct == reference, sourceLocation: sourceLocation)
  }

  static func written(_ value: some JSONWritable) throws -> [UInt8] {
    var json = JSONWriter()
    try value.write(to: &json)
    return json.bytes
  }

  static func text(_ value: some JSONWritable) throws -> String {
    String(decoding: try written(value), as: UTF8.self)
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
    let doubles: [Double] = [
      0, 1, -1, 2.5, 1e15, 9_999_999_999_999_998, 9_007_199_254_740_991,
      9_007_199_254_740_992, 9_007_199_254_740_994, 18_014_398_509_481_984,
      -4_503_599_627_370_497, 1e16, 1e300, .leastNonzeroMagnitude, 123.456,
    ]
    try expectSameAsFoundation(doubles)
    try expectSameAsFoundation([Float(0.1), 1, 3.4e38, -2.5])
    try expectSameAsFoundation([0, UInt64(Int64.max), UInt64.max])
    try expectSameAsFoundation([Int8(-128), 127])
    #expect(try Self.text([5.0, 0.5, 1e16]) == "[5,0.5,1e+16]")
    #expect(throws: JSONWriter.NonFinite.self) { try Self.written([Double.nan]) }
    #expect(throws: JSONWriter.NonFinite.self) { try Self.written(Float.infinity) }
  }

  @Test func membersAreSortedByTheirBytesAndOptionalsLeftOutWhenNil() throws {
    #expect(
      try Self.text(App(id: 7, name: "a/b", rating: 4.0))
        == #"{"id":7,"name":"a/b","rating":4}"#)
    #expect(
      try Self.text(Mark(id: 1, name: nil, backend: .packages))
        == #"{"backend":"packages","id":1}"#)
    #expect(try Self.text(SearchActivity.failed("x")) == #"{"message":"x","status":"failed"}"#)
  }

  /// Declared events write the JSON a client sends (what `monitor` shows), members sorted.
  @Test func declaredEventsWriteAsSent() throws {
    #expect(try Self.text(CounterEvent.set(5)) == #"{"type":"set","value":5}"#)
    #expect(try Self.text(CounterEvent.increment) == #"{"type":"increment"}"#)
    #expect(
      try Self.text(SettingsEvent.set(.counterMaximum, nil))
        == #"{"key":"counterMaximum","type":"set","value":null}"#)
    #expect(try Self.text(AppSearchEvent.toggleMark(42)) == #"{"id":42,"type":"toggleMark"}"#)
    #expect(try Self.text(AppSearchEvent.clearMarks) == #"{"type":"clearMarks"}"#)
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
      ("settings", try Self.written(settings.state)), ("counter", try Self.written(counter.state)),
    ] {
      let data = try #require(storage.contents[key])
      let text = String(decoding: data, as: UTF8.self)
      #expect(text.contains(#""state":"# + String(decoding: wire, as: UTF8.self)), "\(key)")
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
