import Testing
import Wire

@testable import StatectlCore

/// The Swift test `export-test` writes (CI compiles and runs one made from a real recording:
/// Scripts/test's feature step).
@Suite struct TestExportTests {
  static let recording = Recording(
    protocolVersion: 2, recordedAt: "2026-12-01T19:20:00.000Z",
    features: [
      .init(name: "counter", describe: [:], state: ["count": 3], seq: 12),
      .init(
        name: "search",
        describe: ["events": [["type": "search", "effects": true], ["type": "clear"]]],
        state: ["term": ""], seq: 4),
    ],
    entries: [
      .init(
        line: 2,
        push: [
          "push": "event", "feature": "counter", "cause": "event", "event": ["type": "increment"],
          "outcome": "handled", "seq": 13, "before": ["count": 3], "after": ["count": 4],
        ]),
      .init(
        line: 3,
        push: [
          "push": "event", "feature": "search", "cause": "event",
          "event": ["type": "search", "term": "bash"], "outcome": "handled", "seq": 6,
          "before": ["term": ""], "after": ["term": "bash"],
        ]),
      .init(
        line: 4,
        push: [
          "push": "event", "feature": "counter", "cause": "event", "event": ["type": "increment"],
          "outcome": "failed", "error": ["code": "event_failed", "message": "too \"big\""],
          "seq": 13, "before": ["count": 4], "after": ["count": 4],
        ]),
      .init(
        line: 5,
        push: [
          "push": "event", "feature": "counter", "cause": "undo", "outcome": "handled", "seq": 14,
          "before": ["count": 4], "after": ["count": 3],
        ]),
      .init(
        line: 6,
        push: [
          "push": "event", "feature": "counter", "cause": "goto", "target": 13,
          "outcome": "handled", "seq": 15, "before": ["count": 3], "after": ["count": 4],
        ]),
    ])

  @Test func stepsAndExpectedStatesOfTheFeature() throws {
    let source = try TestExport.source(
      Self.recording, feature: "counter", name: nil,
      command: "statectl export-test s --feature counter")
    #expect(source.contains("@Suite struct RecordedCounterSession {"))
    #expect(source.contains(##"static let start = #"{"count":3}"#"##))
    #expect(source.contains(##"    .send(#"{"type":"increment"}"#),  // seq 13"##))
    #expect(
      source.contains(
        ##"    .other("search", event: nil, state: #"{"term":"bash"}"#),  // seq 6"##),
      "another feature's change is set as recorded (an effectful event is not sent)")
    #expect(source.contains(##".send(#"{"type":"increment"}"#, failure: #"too "big""#),"##))
    #expect(source.contains("    .undo,  // seq 14"))
    #expect(source.contains(##"    .set(#"{"count":4}"#),  // seq 15: goto 13"##))
    #expect(
      source.contains(
        ##"""
          static let expected: [String] = [
            #"{"count":4}"#,  // seq 13
            #"{"count":3}"#,  // seq 14
          ]
        """##))
    #expect(source.contains("registerFeatures(in: registry, storage: InMemoryStorage())"))
  }

  @Test func anEffectfulEventIsSetAsRecorded() throws {
    let source = try TestExport.source(
      Self.recording, feature: "search", name: "SearchSession", command: "statectl export-test")
    #expect(source.contains("@Suite struct SearchSession {"))
    #expect(
      source.contains(
        ##".set(#"{"term":"bash"}"#),  // seq 6: search (term: bash), its result depends on the outside world: set as recorded"##
      ))
  }

  @Test func anUnrecordedFeatureIsRefused() {
    #expect(
      throws: TestExport.Problem(
        message: "feature 'x' is not in the recording; recorded: counter, search")
    ) {
      try TestExport.source(Self.recording, feature: "x", name: nil, command: "")
    }
  }

  @Test func literalsAndNames() {
    #expect(TestExport.literal("plain") == #""plain""#)
    #expect(TestExport.literal(#"{"a":1}"#) == ##"#"{"a":1}"#"##)
    #expect(TestExport.literal(##"say "#hi""##) == ###"##"say "#hi""##"###)
    #expect(TestExport.literal(##"a\#(b)"##) == ###"##"a\#(b)"##"###)
    #expect(TestExport.typeName("counter") == "Counter")
    #expect(TestExport.typeName("app-search.v2") == "AppSearchV2")
    #expect(TestExport.typeName("2fa") == "Feature2fa")
    #expect(TestExport.isTypeName("Recorded_1"))
    #expect(!TestExport.isTypeName("1x"))
    #expect(!TestExport.isTypeName("a-b"))
  }
}
