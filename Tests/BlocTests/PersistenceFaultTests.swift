import BlocCore
import Dispatch
import Foundation
import Testing

/// A storage whose writes fail while `failing` is set, and can be held mid-write.
final class FaultyStorage: BlocStorage {
  let inner = InMemoryStorage()
  private let fault = Locked<(failing: Bool, held: DispatchSemaphore?)>((false, nil))

  var failing: Bool {
    get { fault.withLock { $0.failing } }
    set { fault.withLock { $0.failing = newValue } }
  }

  /// Makes the next write wait until `release()`.
  func hold() { fault.withLock { $0.held = DispatchSemaphore(value: 0) } }
  func release() { fault.withLock { $0.held }?.signal() }

  var storedCount: Int? {
    inner.contents["tally"].flatMap { try? JSONDecoder().decode(Stored<Tally>.self, from: $0) }?
      .state.count
  }

  func read(_ key: String) throws -> Data? { try inner.read(key) }
  func write(_ key: String, _ data: Data) throws {
    if let held = fault.withLock({ $0.held }) {
      held.wait()
      fault.withLock { $0.held = nil }
    }
    if failing { throw PersistenceError.writeFailed(key: key, reason: "No space left on device") }
    try inner.write(key, data)
  }
  func remove(_ key: String) throws { try inner.remove(key) }
  func keepAside(_ key: String) throws -> String { try inner.keepAside(key) }
}

@Suite struct PersistenceFaultTests {
  @Test func aChangeThatCannotBeStoredIsUndoneAndNeverStoredLater() async throws {
    let storage = FaultyStorage()
    let bloc = TallyBloc(storage: storage)
    #expect(await bloc.send(.increment).isHandled)
    storage.failing = true
    for _ in 0..<5 {
      guard case .failed(let error) = await bloc.send(.increment) else {
        Issue.record("a change that cannot be stored must fail")
        return
      }
      #expect(error as? PersistenceError != nil)
      #expect(String(describing: error).contains("No space left on device"))
    }
    #expect(bloc.state.count == 1, "the state returned to the stored one")
    #expect(bloc.storedSnapshot.state.count == 1)
    storage.failing = false
    #expect(await bloc.send(.increment).isHandled)
    #expect(bloc.state.count == 2)
    #expect(storage.storedCount == 2, "the refused increments were not stored afterwards")
    await bloc.close()
  }

  @Test func listenersSeeOnlyStoredStates() async throws {
    let storage = FaultyStorage()
    let bloc = TallyBloc(storage: storage)
    let seen = Locked<[Int]>([])
    bloc.listen { update in seen.withLock { $0.append(update.state.count) } }
    #expect(await bloc.send(.increment).isHandled)
    storage.failing = true
    #expect(!(await bloc.send(.increment).isHandled))
    #expect(!(await bloc.send(.increment).isHandled))
    storage.failing = false
    #expect(await bloc.send(.increment).isHandled)
    #expect(seen.withLock { $0 } == [0, 1, 2])
    #expect(bloc.storedSnapshot.state.count == 2)
    await bloc.close()
  }

  @Test func changesBuiltOnAFailedOneFailWithIt() async throws {
    let storage = FaultyStorage()
    let bloc = TallyBloc(storage: storage)
    storage.hold()
    storage.failing = true
    let first = bloc.add(.increment)
    // Handled in memory while the first write is held: built on the unstored count 1.
    let second = bloc.add(.increment)
    await eventually { bloc.state.count == 2 }
    #expect(bloc.storedSnapshot.state.count == 0, "nothing stored yet, nothing shown")
    storage.release()
    #expect(!(await first.outcome).isHandled)
    #expect(!(await second.outcome).isHandled)
    #expect(bloc.state.count == 0)
    storage.failing = false
    #expect(await bloc.send(.increment).isHandled)
    #expect(storage.storedCount == 1)
    await bloc.close()
  }

  @Test func undoCannotBringBackARefusedChange() async throws {
    let storage = FaultyStorage()
    let cubit = StoredCounterCubit(storage: storage)
    try cubit.emit(Tally(count: 1))
    #expect(await cubit.waitUntilStored() == nil)
    storage.failing = true
    try cubit.emit(Tally(count: 7))
    #expect(await cubit.waitUntilStored() != nil)
    #expect(cubit.state.count == 1)
    storage.failing = false
    #expect(!cubit.undo(), "the history that held the refused state is gone")
    try cubit.emit(Tally(count: 2))
    #expect(await cubit.waitUntilStored() == nil)
    #expect(cubit.undo())
    #expect(await cubit.waitUntilStored() == nil)
    #expect(storage.storedCount == 1)
    await cubit.close()
  }

  /// A refused change followed by one back to the stored state: the rollback changes nothing
  /// that shows, but the history holding the refused state goes all the same (issue 17).
  @Test func undoCannotBringBackARefusedChangeWhoseStateCameBack() async throws {
    let storage = FaultyStorage()
    let cubit = StoredCounterCubit(storage: storage)
    try cubit.emit(Tally(count: 1))
    #expect(await cubit.waitUntilStored() == nil)
    storage.hold()
    storage.failing = true
    try cubit.emit(Tally(count: 7))  // its write is held, then refused
    try cubit.emit(Tally(count: 1))  // back to the stored count, built on the refused 7
    storage.release()
    #expect(await cubit.waitUntilStored() != nil)
    #expect(cubit.state.count == 1)
    storage.failing = false
    #expect(!cubit.undo(), "the history that held the refused 7 is gone")
    try cubit.emit(Tally(count: 2))
    #expect(await cubit.waitUntilStored() == nil)
    #expect(cubit.undo(), "back to the stored 1, never to the refused 7")
    #expect(cubit.state.count == 1)
    #expect(await cubit.waitUntilStored() == nil)
    #expect(storage.storedCount == 1)
    await cubit.close()
  }
}

final class StoredCounterCubit: Cubit<Tally>, @unchecked Sendable {
  init(storage: any BlocStorage, storeInitialState: Bool = false, initial: Int = 0) {
    super.init(
      initialState: Tally(count: initial), history: .unlimited,
      persistence: Persistence(
        storage: storage, key: "tally", storeInitialState: storeInitialState))
  }
}
