import BlocCore
import Foundation
import Testing

/// A tally persisted under a key of the test's choosing, keeping the errors it reports (from
/// its creation on: `onError` is called during `init`).
final class KeyedTally: Bloc<TallyEvent, Tally>, @unchecked Sendable {  // errors behind a lock
  let errors = Locked<[PersistenceError]>([])

  init(storage: any BlocStorage, key: String, storeInitialState: Bool = false) {
    super.init(
      initialState: Tally(count: 0),
      persistence: Persistence(
        storage: storage, key: key, storeInitialState: storeInitialState))
    on(.increment) { _, emit in emit(Tally(count: emit.state.count + 1)) }
  }

  override func onError(_ error: any Error) {
    if let error = error as? PersistenceError { errors.withLock { $0.append(error) } }
    super.onError(error)
  }
}

@Suite struct PersistenceKeyTests {
  @Test func aKeyTheFileStorageRefusesIsReportedAtCreationAndEveryChangeFails() async throws {
    let parent = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: parent) }
    let directory = parent.appendingPathComponent("state")
    let storage = try FileStorage(directory: directory)
    let refusal = PersistenceError.invalidKey("../up")

    let bloc = KeyedTally(storage: storage, key: "../up", storeInitialState: true)
    #expect(bloc.restoreIssue == refusal)
    #expect(bloc.errors.withLock { $0 } == [refusal])
    let seen = Locked<[Int]>([])
    bloc.listen { update in seen.withLock { $0.append(update.state.count) } }

    // Never shown, never built upon: each change fails with the refusal and is undone.
    for _ in 0..<3 {
      let outcome = await bloc.send(.increment)
      guard case .failed(let error as PersistenceError) = outcome else {
        Issue.record("expected the refusal, got \(outcome)")
        return
      }
      #expect(error == refusal)
      #expect(bloc.state.count == 0)
    }
    #expect(await bloc.waitUntilStored() == refusal)
    #expect(bloc.storedSnapshot.state.count == 0)
    #expect(seen.withLock { $0 } == [0])
    await bloc.close()

    // Nothing stored, in the directory or next to it (`../up` would be the parent's up.json).
    #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["state"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
  }

  @Test func theRefusalSaysWhatWasWrongAndWhatIsAccepted() {
    let text = String(describing: PersistenceError.invalidKey("../up"))
    #expect(text.contains("'../up'"))
    #expect(text.contains("letters, digits, '.', '-' and '_', not starting with '.'"))
    #expect(text.contains("1 to 245 bytes (255 in a JournalStorage)"))
  }

  @Test func fileStorageAcceptsTheKeysItSaysItDoesAndRefusesTheOthers() throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let storage = try FileStorage(directory: directory)
    // The longest key: `.<key>.json.tmp`, written first, is a file name's 255 bytes.
    let longest = String(repeating: "k", count: 245)
    for key in ["a", "a.b-C_9", "x.", longest] {
      try storage.checkKey(key)
      try storage.write(key, Data("{}".utf8))
      #expect(try storage.read(key) == Data("{}".utf8))
    }
    for key in ["", ".hidden", "../up", "a/b", "a b", "café", longest + "k"] {
      #expect(throws: PersistenceError.invalidKey(key)) { try storage.checkKey(key) }
      #expect(throws: PersistenceError.invalidKey(key)) { try storage.write(key, Data()) }
    }
  }

  @Test func aStorageThatNamesNoFilesAcceptsEveryKey() async throws {
    let storage = InMemoryStorage()
    try storage.checkKey("../up")
    let bloc = KeyedTally(storage: storage, key: "../up")
    #expect(bloc.restoreIssue == nil)
    #expect(await bloc.send(.increment).isHandled)
    #expect(storage.contents.keys.sorted() == ["../up"])
    await bloc.close()
  }
}
