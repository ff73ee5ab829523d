import BlocCore
import Foundation
import Testing

/// A state computed at creation: only the very first one should ever be used.
struct Install: PersistableState {
  var id: String
}

final class InstallCubit: Cubit<Install>, @unchecked Sendable {
  init(storage: any BlocStorage, storeInitialState: Bool = true) {
    super.init(
      initialState: Install(id: UUID().uuidString),
      persistence: Persistence(
        storage: storage, key: "install", storeInitialState: storeInitialState))
  }
}

@Suite struct PersistenceInitialAndClearTests {
  @Test func aComputedInitialStateIsStoredAndSurvivesRestarts() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let first = InstallCubit(storage: try FileStorage(directory: directory))
    let id = first.state.id
    await first.close()
    let second = InstallCubit(storage: try FileStorage(directory: directory))
    #expect(second.state.id == id, "the id generated the first time is kept")
    await second.close()
  }

  @Test func withoutTheOptionTheInitialStateIsNotStored() async throws {
    let storage = InMemoryStorage()
    let first = InstallCubit(storage: storage, storeInitialState: false)
    #expect(storage.contents["install"] == nil)
    let second = InstallCubit(storage: storage, storeInitialState: false)
    #expect(second.state.id != first.state.id)
  }

  @Test func anUnreadableValueIsKeptAsideThenTheInitialStateStored() async throws {
    let storage = InMemoryStorage(["install": Data("{broken".utf8)])
    let cubit = InstallCubit(storage: storage)
    #expect(cubit.restoreIssue != nil)
    #expect(storage.contents["install.unreadable-1"] == Data("{broken".utf8))
    #expect(storage.contents["install"] != nil)
    #expect(InstallCubit(storage: storage).state == cubit.state)
  }

  @Test func clearingOneBlocsStoredStateKeepsItsStateUntilRestart() async throws {
    let storage = InMemoryStorage()
    let tally = StoredCounterCubit(storage: storage)
    let install = InstallCubit(storage: storage)
    try tally.emit(Tally(count: 5))
    try await tally.clearStoredState()
    #expect(storage.contents["tally"] == nil)
    #expect(storage.contents["install"] != nil, "other blocs' states stay")
    #expect(tally.state.count == 5)
    #expect(StoredCounterCubit(storage: storage).state.count == 0, "a restart starts afresh")
    try tally.emit(Tally(count: 6))
    #expect(await tally.waitUntilStored() == nil)
    #expect(StoredCounterCubit(storage: storage).state.count == 6, "later changes are stored")
    _ = install
  }

  @Test func clearingAllStoredStateInADirectory() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let storage = try FileStorage(directory: directory)
    let tally = StoredCounterCubit(storage: storage)
    try tally.emit(Tally(count: 5))
    #expect(await tally.waitUntilStored() == nil)
    _ = InstallCubit(storage: storage)
    try storage.write("other.unreadable-1", Data("kept".utf8))
    try storage.removeAll()
    #expect(try storage.read("tally") == nil)
    #expect(try storage.read("install") == nil)
    #expect(try storage.read("other.unreadable-1") == Data("kept".utf8))
    #expect(StoredCounterCubit(storage: try FileStorage(directory: directory)).state.count == 0)
    await tally.close()
  }
}
