import BlocCore
import Foundation
import Testing

/// A persisted bloc's sequence number is stored with its state, so it names one state for good:
/// it continues across a recreated bloc (across a compacted journal: JournalTests).
@Suite struct SequencePersistenceTests {
  @Test func theSequenceContinuesInARecreatedBloc() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let first = TallyBloc(storage: try FileStorage(directory: directory))
    for _ in 0..<3 { #expect(await first.send(.increment).isHandled) }
    #expect(first.sequence == 3)
    await first.close()
    let second = TallyBloc(storage: try FileStorage(directory: directory))
    #expect(second.storedSnapshot == StateUpdate(sequence: 3, state: Tally(count: 3)))
    #expect(await second.send(.increment).isHandled)
    #expect(second.currentSnapshot == StateUpdate(sequence: 4, state: Tally(count: 4)))
    await second.close()
  }

  @Test func aStateWithoutAStoredSequenceStartsAtZero() async {
    let storage = InMemoryStorage(["tally": Data(#"{"schemaVersion":2,"state":{"count":7}}"#.utf8)])
    let bloc = TallyBloc(storage: storage)
    #expect(bloc.storedSnapshot == StateUpdate(sequence: 0, state: Tally(count: 7)))
    await bloc.close()
  }

  @Test func aMigratedStateIsAChangeStoredAtCreation() async throws {
    let storage = InMemoryStorage(["tally": Data(#"{"schemaVersion":1,"seq":5,"state":41}"#.utf8)])
    let bloc = TallyBloc(storage: storage)
    #expect(bloc.sequence == 6)
    #expect(await bloc.waitUntilStored() == nil)
    #expect(bloc.storedSnapshot == StateUpdate(sequence: 6, state: Tally(count: 41)))
    let stored = String(decoding: try #require(storage.contents["tally"]), as: UTF8.self)
    #expect(stored == #"{"schemaVersion":2,"seq":6,"state":{"count":41}}"#)
    await bloc.close()
  }
}
