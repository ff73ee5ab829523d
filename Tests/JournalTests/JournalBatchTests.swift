import BlocCore
import BlocJournal
import Foundation
import Testing

/// `beginBatch()`/`commitBatch()`: what an event loop does around the requests of one turn.
@Suite struct JournalBatchTests {
  @Test func changesMadeInsideABatchAreWrittenOnceAtItsCommit() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let storage = try JournalStorage(directory: directory, sync: .deferred)
    let first = TallyBloc(storage: storage)
    let second = KeyedTallyBloc(storage: storage, key: "other")
    let before = storage.batchesWritten

    storage.beginBatch()
    let receipts = (0..<100).flatMap { _ in [first.add(.increment), second.add(.increment)] }
    #expect(first.state.count == 100, "synchronous handlers ran at once")
    #expect(storage.batchesWritten == before, "nothing is written while the batch is open")
    #expect(receipts.allSatisfy { $0.resolvedOutcome == nil }, "no reply before the write")
    storage.commitBatch()

    // With `.deferred` the commit writes on the calling thread: done when it returns.
    #expect(storage.batchesWritten == before + 1, "both blocs' 200 changes in one write")
    #expect(receipts.allSatisfy { $0.resolvedOutcome?.isHandled == true })
    #expect(first.storedSnapshot.state.count == 100)
    await first.close()
    await second.close()
    storage.close()
    let reopened = try JournalStorage(directory: directory)
    #expect(TallyBloc(storage: reopened).state.count == 100)
    #expect(KeyedTallyBloc(storage: reopened, key: "other").state.count == 100)
  }

  /// A bloc's records and plain writes and removals of other keys in the same batches, and
  /// from batch to batch: each record has its own key's header and checksum (a bloc's header
  /// is made again only after another key's), and all of them read back.
  @Test func blocsAndPlainWritesShareBatchesAndReadBack() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let storage = try JournalStorage(directory: directory, sync: .deferred)
    let bloc = TallyBloc(storage: storage)
    try storage.write("gone", Data("0".utf8))
    for round in 1...3 {
      storage.beginBatch()
      _ = bloc.add(.increment)
      storage.write("plain", Data("\(round)".utf8)) { #expect($0 == nil) }
      _ = bloc.add(.increment)
      storage.commitBatch()
      _ = bloc.add(.increment)
    }
    try storage.remove("gone")
    #expect(await bloc.waitUntilStored() == nil)
    await bloc.close()
    storage.close()
    let reopened = try JournalStorage(directory: directory)
    #expect(TallyBloc(storage: reopened).state.count == 9)
    #expect(try reopened.read("plain") == Data("3".utf8))
    #expect(try reopened.read("gone") == nil)
    #expect(reopened.recoveryNotes.isEmpty, "\(reopened.recoveryNotes)")
    reopened.close()
  }

  @Test func nestedBatchesAreWrittenAtTheOutermostCommit() throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let storage = try JournalStorage(directory: directory, sync: .deferred)
    let bloc = TallyBloc(storage: storage)
    storage.beginBatch()
    storage.beginBatch()
    let receipt = bloc.add(.increment)
    storage.commitBatch()
    #expect(storage.batchesWritten == 0)
    #expect(receipt.resolvedOutcome == nil)
    storage.commitBatch()
    #expect(storage.batchesWritten == 1)
    #expect(receipt.resolvedOutcome?.isHandled == true)
    storage.close()
  }

  /// With `.always` a batch is synced on the committing thread, its completions run before the
  /// commit returns; with others waiting it is synced on the writer, beside the caller. Either
  /// way one write and one sync cover the whole batch.
  @Test(arguments: [false, true])
  func withAlwaysFiftyChangesShareOneSync(othersWaiting: Bool) async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let storage = try JournalStorage(directory: directory, sync: .always)
    let bloc = TallyBloc(storage: storage)
    storage.beginBatch()
    let receipts = (0..<50).map { _ in bloc.add(.increment) }
    storage.commitBatch(connections: othersWaiting ? 2 : 1)
    if !othersWaiting {
      #expect(receipts.allSatisfy { $0.resolvedOutcome?.isHandled == true })
    }
    for receipt in receipts { #expect(await receipt.outcome.isHandled) }
    #expect(storage.batchesWritten == 1, "fifty changes, one write and one sync")
    await bloc.close()
    storage.close()
    #expect(TallyBloc(storage: try JournalStorage(directory: directory)).state.count == 50)
  }

  /// Under `.always` the writer waits, before its next sync, for as many clients as its last
  /// one served: commits that bring them wake it, and when they do not come it gives up after
  /// its short wait. Either way every change is stored and nothing waits for ever, whether the
  /// next commits come while it waits or after.
  @Test func theWriterWaitingForItsClientsIsWokenByTheirCommitsOrGoesOn() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let storage = try JournalStorage(directory: directory, sync: .always)
    let bloc = TallyBloc(storage: storage)
    var receipts: [EventReceipt] = []
    for round in 0..<300 {
      storage.beginBatch()
      receipts.append(bloc.add(.increment))
      storage.commitBatch(connections: 1 + round % 3)
      if round % 7 == 0 { _ = await receipts[round].outcome }
    }
    for receipt in receipts { #expect(await receipt.outcome.isHandled) }
    #expect(storage.batchesWritten <= 300)
    await bloc.close()
    storage.close()
    #expect(TallyBloc(storage: try JournalStorage(directory: directory)).state.count == 300)
  }

  @Test func aBlockingWriteInsideAnOpenBatchDoesNotWaitForItsCommit() throws {
    // The thread holding the batch open is the one that would commit it.
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let storage = try JournalStorage(directory: directory, sync: .deferred)
    storage.beginBatch()
    try storage.write("direct", Data("1".utf8))
    try storage.remove("direct")
    storage.commitBatch()
    #expect(try storage.read("direct") == nil)
    storage.close()
  }

  @Test func writesOutsideAnyBatchAreStillWrittenByThemselves() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let storage = try JournalStorage(directory: directory, sync: .deferred)
    let bloc = TallyBloc(storage: storage)
    #expect(await bloc.add(.increment).outcome.isHandled)
    #expect(storage.batchesWritten == 1)
    await bloc.close()
    storage.close()
  }
}
