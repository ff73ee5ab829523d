import BlocCore
import BlocJournal
import FeatureKit
import Foundation
import StateServer
import Synchronization
import Testing
import Wire

/// A state that counts how often it is written, and how often it goes through `Codable`.
struct CountedState: DeclaredState, PersistableState {
  var count = 0

  static let declaration = StateDeclaration(
    initial: CountedState(),
    StateField(
      FieldShape("count", .integer(), "The count."),
      value: { state in
        CountedState.writes.add(1, ordering: .relaxed)
        return state.count
      },
      read: { state, object in
        state.count = try object.decodeIfPresent(Int.self, forKey: FieldKey("count")) ?? 0
      }))

  static let writes = Atomic<Int>(0)
  static let encodings = Atomic<Int>(0)

  private enum Keys: String, CodingKey { case count }

  func encode(to encoder: any Encoder) throws {
    Self.encodings.add(1, ordering: .relaxed)
    var object = encoder.container(keyedBy: Keys.self)
    try object.encode(count, forKey: .count)
  }
}

enum CountedFeature: FeatureDescription {
  typealias Event = TallyEvent
  typealias State = CountedState
  static let name = "counted"
  static let summary = "A tally that counts its encodings."
}

/// A change is written once: the bytes written to store it are the ones clients get, and no
/// `Encoder` runs on the way.
@Suite struct EncodeOnceTests {
  @Test func eachStoredStateIsWrittenOnceForTheJournalAndTheReplies() async throws {
    let directory = TemporaryDirectory()
    let storage = try JournalStorage(
      directory: URL(fileURLWithPath: directory.path + "/state"), sync: .deferred)
    let bloc = Bloc<TallyEvent, CountedState>(
      initialState: CountedState(), persistence: Persistence(storage: storage, key: "counted")
    ) { bloc in
      bloc.on("add") { _, emit in emit.update { $0.count += 1 } }
    }
    let registry = FeatureRegistry()
    registry.register(CountedFeature.self, bloc)
    let feature = try #require(registry.feature(named: "counted"))
    let before = CountedState.writes.load(ordering: .relaxed)
    let encodedBefore = CountedState.encodings.load(ordering: .relaxed)
    for expected in 1...3 {
      #expect(try await feature.add(#"{"type":"add"}"#).outcome.isHandled)
      let snapshot = try feature.storedSnapshot()
      #expect(String(decoding: snapshot.json, as: UTF8.self) == #"{"count":\#(expected)}"#)
      #expect(snapshot.sequence == UInt64(expected))
    }
    #expect(CountedState.writes.load(ordering: .relaxed) - before == 3)
    #expect(CountedState.encodings.load(ordering: .relaxed) - encodedBefore == 0)
    await bloc.close()
    storage.close()
    // And what was stored is the same state.
    let reopened = try JournalStorage(directory: URL(fileURLWithPath: directory.path + "/state"))
    let stored = try #require(try reopened.read("counted"))
    // Stored with its cause and time (the journal keeps history); the time varies.
    let text = String(decoding: stored, as: UTF8.self).replacing(#/"time":\d+/#, with: "\"time\":T")
    #expect(text == #"{"cause":"event","schemaVersion":1,"seq":3,"state":{"count":3},"time":T}"#)
    reopened.close()
  }
}
