import BlocCore
import Dispatch
import Foundation
import Testing

struct Tally: PersistableState {
  static let schemaVersion = 2
  var count: Int

  /// Version 1 stored a bare integer.
  static func migrate(from version: Int, data: Data, decoder: JSONDecoder) throws -> Tally {
    guard version == 1 else { throw PersistenceError.noMigration(from: version, to: 2) }
    return Tally(count: try decoder.decode(Stored<Int>.self, from: data).state)
  }
}

enum TallyEvent: BlocEvent, Hashable { case increment }

final class TallyBloc: Bloc<TallyEvent, Tally>, @unchecked Sendable {
  init(storage: any BlocStorage, unreadable: UnreadablePolicy = .keepAside) {
    super.init(
      initialState: Tally(count: 0),
      persistence: Persistence(storage: storage, key: "tally", unreadable: unreadable))
    on(.increment) { _, emit in emit(Tally(count: emit.state.count + 1)) }
  }
}

func temporaryDirectory() -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "bloc-tests-\(UUID().uuidString)")
  try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

@Suite struct PersistenceTests {
  @Test func stateSurvivesARecreatedBlocInARealDirectory() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let first = TallyBloc(storage: try FileStorage(directory: directory))
    #expect(await first.send(.increment).isHandled)
    #expect(await first.send(.increment).isHandled)
    // The outcome came after the write, so the file is already there: no close needed.
    let second = TallyBloc(storage: try FileStorage(directory: directory))
    #expect(second.state.count == 2)
    let text = try String(
      contentsOf: directory.appendingPathComponent("tally.json"), encoding: .utf8)
    #expect(text == #"{"schemaVersion":2,"seq":2,"state":{"count":2}}"#)
    await first.close()
    await second.close()
  }

  @Test func fileStorageLeavesNoTemporaryFilesAndUsesPrivateModes() async throws {
    let parent = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: parent) }
    let directory = parent.appendingPathComponent("state")
    let storage = try FileStorage(directory: directory)
    try storage.write("k", Data("one".utf8))
    try storage.write("k", Data("two".utf8))
    #expect(try storage.read("k") == Data("two".utf8))
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(files == ["k.json"])
    let attributes = try FileManager.default.attributesOfItem(atPath: directory.path)
    #expect((attributes[.posixPermissions] as? Int) == 0o700)
    #expect(throws: PersistenceError.invalidKey("../escape")) {
      try storage.write("../escape", Data())
    }
    for key in ["", ".hidden", "a/b", "a b", "café", "tab\t"] {
      #expect(throws: PersistenceError.invalidKey(key)) { try storage.write(key, Data()) }
    }
    try storage.write("a.b-C_9", Data("ok".utf8))
    #expect(try storage.read("a.b-C_9") == Data("ok".utf8))
  }

  @Test func anOlderSchemaIsMigrated() async throws {
    let storage = InMemoryStorage(["tally": Data(#"{"schemaVersion":1,"state":41}"#.utf8)])
    let bloc = TallyBloc(storage: storage)
    #expect(bloc.state.count == 41)
    #expect(bloc.restoreIssue == nil)
    await bloc.send(.increment)
    #expect(
      String(decoding: storage.contents["tally"]!, as: UTF8.self).contains(#""schemaVersion":2"#))
  }

  @Test func anUnreadableValueIsKeptAsideAndReported() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let storage = try FileStorage(directory: directory)
    try storage.write("tally", Data("not json at all".utf8))
    let log = LogObserver()
    let token = BlocObservers.add(log)
    defer { BlocObservers.remove(token) }
    let bloc = TallyBloc(storage: storage)
    #expect(bloc.state.count == 0)
    guard case .unreadable(key: "tally", _, let keptAs?) = bloc.restoreIssue else {
      Issue.record("expected a restore issue, got \(String(describing: bloc.restoreIssue))")
      return
    }
    #expect(try String(contentsOfFile: keptAs, encoding: .utf8) == "not json at all")
    #expect(log.all.contains { $0.contains("cannot read stored state 'tally'") })
    await bloc.send(.increment)
    #expect(try String(contentsOfFile: keptAs, encoding: .utf8) == "not json at all")
    await bloc.close()
  }

  @Test func aNewerSchemaIsNeverOverwrittenWithStopPersisting() async throws {
    let stored = Data(#"{"schemaVersion":9,"state":{"count":5}}"#.utf8)
    let storage = InMemoryStorage(["tally": stored])
    let bloc = TallyBloc(storage: storage, unreadable: .stopPersisting)
    guard case .unreadable(_, let reason, nil) = bloc.restoreIssue else {
      Issue.record("expected a restore issue")
      return
    }
    #expect(reason.contains("newer"))
    await bloc.send(.increment)
    await bloc.close()
    #expect(storage.contents["tally"] == stored, "the user's data is untouched")
  }

  @Test func burstsOfChangesCoalesceIntoFewWrites() async throws {
    let storage = CountingStorage()
    let bloc = TallyBloc(storage: storage)
    let receipts = (0..<500).map { _ in bloc.add(.increment) }
    for receipt in receipts { #expect(await receipt.outcome.isHandled) }
    #expect(bloc.state.count == 500)
    #expect(storage.lastCount == 500, "every handled outcome implies its state is stored")
    #expect(storage.writes <= 500)
    await bloc.close()
  }

  @Test func aFailedWriteFailsTheOutcome() async throws {
    let storage = CountingStorage(failing: true)
    let bloc = TallyBloc(storage: storage)
    guard case .failed(let error) = await bloc.send(.increment) else {
      Issue.record("expected failure")
      return
    }
    #expect(String(describing: error).contains("cannot save state"))
    await bloc.close()
  }
}

/// A weak reference tests can read from any task.
final class WeakReference<Value: AnyObject & Sendable>: Sendable {
  private struct Box { weak var value: Value? }
  private let box = Locked(Box())
  var value: Value? {
    get { box.withLock { $0.value } }
    set { box.withLock { $0.value = newValue } }
  }
}

/// A storage whose writes wait until the test opens it.
final class HeldStorage: BlocStorage {
  private let held = DispatchSemaphore(value: 0)
  private let written = Locked<[Data]>([])
  var writes: [Data] { written.withLock { $0 } }
  func release() { held.signal() }
  func read(_ key: String) throws -> Data? { nil }
  func write(_ key: String, _ data: Data) throws {
    held.wait()
    written.withLock { $0.append(data) }
  }
  func remove(_ key: String) throws {}
  func keepAside(_ key: String) throws -> String { key }
}

@Suite struct PersisterLifetimeTests {
  /// A bloc on `storage`, given to `use` and then dropped: the reference says whether it is gone.
  private func dropped(
    on storage: any BlocStorage, after use: (TallyBloc) async -> Void
  ) async -> WeakReference<TallyBloc> {
    let dropped = WeakReference<TallyBloc>()
    do {
      let bloc = TallyBloc(storage: storage)
      dropped.value = bloc
      await use(bloc)
    }
    return dropped
  }

  @Test func aBlocDroppedWhileItsChangeIsWrittenLivesUntilTheChangeIsStored() async {
    let storage = HeldStorage()
    let dropped = await dropped(on: storage) { bloc in bloc.add(.increment) }
    #expect(dropped.value != nil)  // the write in flight holds it
    storage.release()
    await eventually { dropped.value == nil }
    #expect(dropped.value == nil)
    #expect(
      storage.writes.map { String(decoding: $0, as: UTF8.self) } == [
        #"{"schemaVersion":2,"seq":1,"state":{"count":1}}"#
      ])
  }

  @Test func anIdlePersistedBlocIsFreedWhenDropped() async {
    let storage = CountingStorage()
    let dropped = await dropped(on: storage) { bloc in
      #expect(await bloc.send(.increment).isHandled)
    }
    await eventually { dropped.value == nil }
    #expect(dropped.value == nil)
    #expect(storage.writes == 1)
  }
}

final class CountingStorage: BlocStorage {
  private let state = Locked<(writes: Int, last: Data?)>((0, nil))
  let failing: Bool
  init(failing: Bool = false) { self.failing = failing }
  var writes: Int { state.withLock { $0.writes } }
  var lastCount: Int? {
    state.withLock { $0.last }.flatMap { try? JSONDecoder().decode(Stored<Tally>.self, from: $0) }?
      .state.count
  }
  func read(_ key: String) throws -> Data? { nil }
  func write(_ key: String, _ data: Data) throws {
    if failing { throw PersistenceError.writeFailed(key: key, reason: "disk full") }
    state.withLock {
      $0.writes += 1
      $0.last = data
    }
  }
  func remove(_ key: String) throws {}
  func keepAside(_ key: String) throws -> String { key }
}

@Suite struct FileStorageSyncTests {
  @Test func deferredSyncStillReplacesAtomicallyAndSyncsOnDemand() throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let storage = try FileStorage(directory: directory, sync: .deferred)
    try storage.write("k", Data("one".utf8))
    try storage.write("k", Data("two".utf8))
    storage.sync()
    #expect(try storage.read("k") == Data("two".utf8))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["k.json"])
  }
}

@Suite struct ReceiptTests {
  @Test func onResolveRunsOnceResolvedOrAtOnce() async {
    let bloc = CounterBloc()
    let seen = Locked<[String]>([])
    let receipt = bloc.add(.increment)
    receipt.onResolve { outcome in seen.withLock { $0.append("late \(outcome.name)") } }
    _ = await receipt.outcome
    receipt.onResolve { outcome in seen.withLock { $0.append("now \(outcome.name)") } }
    #expect(seen.withLock { $0 } == ["late handled", "now handled"])
    #expect(bloc.currentSnapshot == StateUpdate(sequence: 1, state: 1))
  }
}
