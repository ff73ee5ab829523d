import BlocCore
import BlocJournal
import Foundation
import Testing

/// A tally persisted under a key of the test's choosing.
private final class KeyedTally: Bloc<TallyEvent, Tally>, @unchecked Sendable {  // as Bloc
  init(storage: any BlocStorage, key: String) {
    super.init(
      initialState: Tally(count: 0), persistence: Persistence(storage: storage, key: key))
    on(.increment) { _, emit in emit(Tally(count: emit.state.count + 1)) }
  }
}

@Suite struct JournalKeyTests {
  @Test func aRefusedKeyFailsItsBlocsChangesAndNoOtherBlocsInTheSameBatches() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let journal = try JournalStorage(directory: directory, sync: .always)
    let refusal = PersistenceError.invalidKey("../up")
    let refused = KeyedTally(storage: journal, key: "../up")
    let tally = TallyBloc(storage: journal)
    #expect(refused.restoreIssue == refusal)
    #expect(tally.restoreIssue == nil)

    for _ in 0..<5 {
      // Sent together, so that they often share a batch: the refusal is the refused bloc's.
      async let failed = refused.send(.increment)
      async let handled = tally.send(.increment)
      let (outcome, other) = await (failed, handled)
      guard case .failed(let error as PersistenceError) = outcome else {
        Issue.record("expected the refusal, got \(outcome)")
        return
      }
      #expect(error == refusal)
      #expect(other.isHandled)
    }
    #expect(refused.state.count == 0)
    #expect(await refused.waitUntilStored() == refusal)
    #expect(journal.keys == ["tally"])
    await refused.close()
    await tally.close()
    journal.close()

    let reopened = try JournalStorage(directory: directory, sync: .always)
    #expect(reopened.keys == ["tally"])
    #expect(TallyBloc(storage: reopened).state.count == 5)
    reopened.close()
  }

  @Test func theJournalAcceptsKeysOfUpTo255Bytes() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let journal = try JournalStorage(directory: directory, sync: .always)
    let longest = String(repeating: "k", count: 255)
    try journal.checkKey(longest)
    #expect(throws: PersistenceError.invalidKey(longest + "k")) {
      try journal.checkKey(longest + "k")
    }
    for key in ["", ".hidden", "../up", "a/b"] {
      #expect(throws: PersistenceError.invalidKey(key)) { try journal.checkKey(key) }
    }
    let bloc = KeyedTally(storage: journal, key: longest)
    #expect(bloc.restoreIssue == nil)
    #expect(await bloc.send(.increment).isHandled)
    await bloc.close()
    journal.close()
    let reopened = try JournalStorage(directory: directory, sync: .always)
    #expect(KeyedTally(storage: reopened, key: longest).state.count == 1)
    reopened.close()
  }
}
