import BlocCore
import BlocJournal
import Foundation
import Testing

/// The journal's files, read and damaged directly as a crash or a bad disk would.
private struct JournalDirectory {
  let url = temporaryDirectory()
  var path: String { url.path }

  func open(
    sync: JournalStorage.SyncPolicy = .always, limits: JournalStorage.Limits = .init()
  ) throws -> JournalStorage {
    try JournalStorage(directory: url, sync: sync, limits: limits)
  }

  var files: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
  }

  var journal: String {
    get throws { path + "/" + (try #require(files.last { $0.hasSuffix(".log") })) }
  }

  func remove() { try? FileManager.default.removeItem(at: url) }
}

private func text(_ data: Data?) -> String? { data.map { String(decoding: $0, as: UTF8.self) } }

@Suite struct JournalStorageTests {
  @Test func valuesSurviveReopening() throws {
    let directory = JournalDirectory()
    defer { directory.remove() }
    let storage = try directory.open()
    try storage.write("a", Data("one".utf8))
    try storage.write("b", Data("two".utf8))
    try storage.write("a", Data("three".utf8))
    try storage.remove("b")
    storage.close()
    let reopened = try directory.open()
    #expect(text(try reopened.read("a")) == "three")
    #expect(try reopened.read("b") == nil)
    #expect(reopened.recoveryNotes.isEmpty)
    #expect(directory.files == ["journal.00000001.log"])
  }

  @Test func changesArrivingDuringAWriteShareTheNextBatch() async throws {
    let directory = JournalDirectory()
    defer { directory.remove() }
    let storage = try directory.open()
    let done = Locked(0)
    await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
      for n in 1...2000 {
        storage.write("k\(n % 7)", Data("\(n)".utf8)) { error in
          precondition(error == nil)
          if done.withLock({
            $0 += 1; return $0
          }) == 2000 {
            finished.resume()
          }
        }
      }
    }
    #expect(storage.batchesWritten < 2000, "one fsync per batch, not per change")
    #expect(text(try storage.read("k5")) == "2000")
    storage.close()
    #expect(text(try directory.open().read("k6")) == "1994")
  }

  @Test func aTornTailIsCutKeptAsideAndLogged() throws {
    let directory = JournalDirectory()
    defer { directory.remove() }
    let storage = try directory.open()
    try storage.write("a", Data("kept".utf8))
    try storage.write("a", Data("torn away".utf8))
    storage.close()
    let journal = try directory.journal
    let size = try #require(
      try FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int)
    #expect(truncate(journal, off_t(size - 3)) == 0)  // a crash in the middle of the append
    let reopened = try directory.open()
    #expect(text(try reopened.read("a")) == "kept")
    let note = try #require(reopened.recoveryNotes.first)
    #expect(note.contains("torn write"), "\(note)")
    #expect(note.contains("journal.00000001.log.corrupt-1"))
    #expect(directory.files.contains("journal.00000001.log.corrupt-1"))
    try reopened.write("a", Data("after".utf8))
    reopened.close()
    let again = try directory.open()
    #expect(text(try again.read("a")) == "after")
    #expect(again.recoveryNotes.isEmpty, "the cut journal is whole again")
  }

  @Test func aFlippedByteEndsTheValidPartAndIsLogged() throws {
    let directory = JournalDirectory()
    defer { directory.remove() }
    let storage = try directory.open()
    try storage.write("a", Data("first".utf8))
    try storage.write("a", Data("second".utf8))
    storage.close()
    let journal = try directory.journal
    var bytes = try Data(contentsOf: URL(fileURLWithPath: journal))
    bytes[bytes.count - 2] ^= 0x04
    try bytes.write(to: URL(fileURLWithPath: journal))
    let reopened = try directory.open()
    #expect(text(try reopened.read("a")) == "first")
    #expect(reopened.recoveryNotes.first?.contains("checksum does not match") == true)
  }

  @Test func anEmptyJournalLoadsAndIsLogged() throws {
    let directory = JournalDirectory()
    defer { directory.remove() }
    try directory.open().close()
    let journal = try directory.journal
    #expect(truncate(journal, 0) == 0)
    let storage = try directory.open()
    #expect(storage.keys.isEmpty)
    #expect(storage.recoveryNotes.first?.contains("is empty") == true)
    try storage.write("a", Data("x".utf8))
    storage.close()
    #expect(text(try directory.open().read("a")) == "x")
  }

  @Test func fileStorageDirectoriesAreMigratedOnce() throws {
    let directory = JournalDirectory()
    defer { directory.remove() }
    let old = try FileStorage(directory: directory.url)
    try old.write("counter", Data(#"{"schemaVersion":1,"state":{"count":41}}"#.utf8))
    try old.write("settings", Data("{}".utf8))
    try Data("junk".utf8).write(
      to: directory.url.appendingPathComponent("counter.unreadable-1.json"))
    let storage = try directory.open()
    #expect(text(try storage.read("counter")) == #"{"schemaVersion":1,"state":{"count":41}}"#)
    #expect(text(try storage.read("settings")) == "{}")
    #expect(try storage.read("counter.unreadable-1") == nil, "kept-aside files are left alone")
    #expect(storage.recoveryNotes.first?.contains("migrated 2 state file(s)") == true)
    #expect(directory.files.contains("counter.json.migrated"))
    #expect(!directory.files.contains("counter.json"))
    try storage.write("counter", Data("new".utf8))
    storage.close()
    let again = try directory.open()
    #expect(text(try again.read("counter")) == "new", "not migrated a second time")
    #expect(again.recoveryNotes.isEmpty)
  }

  @Test func compactionSnapshotsAndDropsOldJournals() async throws {
    let directory = JournalDirectory()
    defer { directory.remove() }
    let storage = try directory.open(limits: .init(records: 50, bytes: 1 << 30))
    for n in 1...500 { try storage.write("k\(n % 3)", Data("\(n)".utf8)) }
    storage.close()  // waits for the snapshot being written
    let files = directory.files
    #expect(files.filter { $0.hasSuffix(".log") }.count == 1, "\(files)")
    #expect(files.filter { $0.hasSuffix(".bin") }.count == 1, "\(files)")
    let reopened = try directory.open()
    #expect(text(try reopened.read("k2")) == "500")
    #expect(text(try reopened.read("k0")) == "498")
    #expect(reopened.recoveryNotes.isEmpty)
  }

  @Test func aRemovedDirectoryIsRecreatedWithEveryStoredValue() throws {
    let directory = JournalDirectory()
    defer { directory.remove() }
    let storage = try directory.open()
    try storage.write("a", Data("one".utf8))
    try storage.write("b", Data("two".utf8))
    directory.remove()
    try storage.write("a", Data("three".utf8))
    storage.close()
    let reopened = try directory.open()
    #expect(text(try reopened.read("a")) == "three")
    #expect(text(try reopened.read("b")) == "two")
  }

  /// Deferred looks for a deleted file once a second (the sync timer, or a `sync()`), not per
  /// batch: what the batches stored meanwhile is rewritten all the same, by the next batch
  /// after the look or, at the latest, by `close()`.
  @Test(arguments: [false, true])
  func deferredRecreatesARemovedDirectoryWithEveryStoredValue(syncedBeforeClosing: Bool) throws {
    let directory = JournalDirectory()
    defer { directory.remove() }
    let storage = try directory.open(sync: .deferred)
    try storage.write("a", Data("one".utf8))
    try storage.write("b", Data("two".utf8))
    directory.remove()
    try storage.write("a", Data("three".utf8))
    if syncedBeforeClosing {
      storage.sync()  // as the timer does: the next batch looks first
      try storage.write("c", Data("four".utf8))
      #expect(directory.files.contains { $0.hasSuffix(".log") }, "recreated before closing")
    }
    storage.close()
    let reopened = try directory.open()
    #expect(text(try reopened.read("a")) == "three")
    #expect(text(try reopened.read("b")) == "two")
    #expect(text(try reopened.read("c")) == (syncedBeforeClosing ? "four" : nil))
  }

  @Test func keptAsideValuesBecomeFilesAndClearingRemovesEveryKey() throws {
    let directory = JournalDirectory()
    defer { directory.remove() }
    let storage = try directory.open()
    try storage.write("a", Data("{bad".utf8))
    try storage.write("b", Data("fine".utf8))
    let aside = try storage.keepAside("a")
    #expect(aside == directory.path + "/a.unreadable-1.json")
    #expect(try String(contentsOfFile: aside, encoding: .utf8) == "{bad")
    #expect(try storage.read("a") == nil)
    try storage.removeAll()
    #expect(storage.keys.isEmpty)
    storage.close()
    #expect(try directory.open().keys.isEmpty)
    #expect(directory.files.contains("a.unreadable-1.json"))
  }

  @Test func aBlocOnTheJournalRestoresEveryHandledChange() async throws {
    let directory = JournalDirectory()
    defer { directory.remove() }
    let storage = try directory.open(sync: .deferred)
    let bloc = TallyBloc(storage: storage)
    let receipts = (0..<300).map { _ in bloc.add(.increment) }
    for receipt in receipts { #expect(await receipt.outcome.isHandled) }
    #expect(bloc.storedSnapshot.state.count == 300)
    await bloc.close()
    storage.close()
    #expect(TallyBloc(storage: try directory.open()).state.count == 300)
  }

  @Test func blocsSharingTheJournalShareItsBatches() async throws {
    let directory = JournalDirectory()
    defer { directory.remove() }
    let storage = try directory.open()
    let first = TallyBloc(storage: storage)
    let second = KeyedTallyBloc(storage: storage, key: "other")
    let receipts = (0..<400).flatMap { _ in [first.add(.increment), second.add(.increment)] }
    for receipt in receipts { #expect(await receipt.outcome.isHandled) }
    #expect(storage.batchesWritten < 800, "changes of both blocs are written together")
    await first.close()
    await second.close()
    storage.close()
    let reopened = try directory.open()
    #expect(TallyBloc(storage: reopened).state.count == 400)
    #expect(KeyedTallyBloc(storage: reopened, key: "other").state.count == 400)
  }
}

final class KeyedTallyBloc: Bloc<TallyEvent, Tally>, @unchecked Sendable {
  init(storage: any BlocStorage, key: String) {
    super.init(
      initialState: Tally(count: 0), persistence: Persistence(storage: storage, key: key))
    on(.increment) { _, emit in emit(Tally(count: emit.state.count + 1)) }
  }
}
