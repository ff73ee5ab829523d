import BlocCore
import BlocJournal
import Foundation
import Testing

/// A bloc persisted in a journal that keeps history stores every change as a record of its own,
/// with its seq, cause and time (not only the newest state of each batch), and the journal
/// keeps the newest `Limits.history` of them per key across reopening and compaction.
@Suite struct ChangeHistoryTests {
  private func records(_ storage: JournalStorage, _ key: String) throws -> [[String: Any]] {
    try storage.history(key).map { data in
      try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
  }

  @Test func everyChangeOfABatchIsStoredWithItsCauseAndTime() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let storage = try JournalStorage(directory: directory)
    let cubit = Cubit<Tally>(
      initialState: Tally(count: 0), persistence: Persistence(storage: storage, key: "k"))
    storage.beginBatch()
    for count in 1...3 { try cubit.emit(Tally(count: count)) }
    storage.commitBatch()
    #expect(await cubit.waitUntilStored() == nil)
    #expect(storage.batchesWritten == 1, "one write for the three changes")
    var stored = try records(storage, "k")
    #expect(stored.map { $0["seq"] as? Int } == [1, 2, 3])
    #expect(stored.map { $0["cause"] as? String } == ["emit", "emit", "emit"])
    #expect(stored.allSatisfy { ($0["time"] as? Int ?? 0) > 1_700_000_000_000 })
    #expect(cubit.restore(Tally(count: 9)) == 4)
    #expect(await cubit.waitUntilStored() == nil)
    stored = try records(storage, "k")
    #expect(stored.last?["cause"] as? String == "restore")
    await cubit.close()
    storage.close()
    let reopened = try JournalStorage(directory: directory)
    #expect(try records(reopened, "k").map { $0["seq"] as? Int } == [1, 2, 3, 4])
    reopened.close()
  }

  @Test func compactionKeepsTheNewestChangesOfEveryKey() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let limits = JournalStorage.Limits(records: 3, history: 4)
    let storage = try JournalStorage(directory: directory, limits: limits)
    let cubit = Cubit<Tally>(
      initialState: Tally(count: 0), persistence: Persistence(storage: storage, key: "k"))
    for count in 1...10 {
      try cubit.emit(Tally(count: count))
      #expect(await cubit.waitUntilStored() == nil)
    }
    #expect(try records(storage, "k").map { $0["seq"] as? Int } == [7, 8, 9, 10])
    await cubit.close()
    storage.close()
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(files.contains { $0.hasPrefix("snapshot.") }, "\(files)")
    let reopened = try JournalStorage(directory: directory, limits: limits)
    #expect(try records(reopened, "k").map { $0["seq"] as? Int } == [7, 8, 9, 10])
    let again = Cubit<Tally>(
      initialState: Tally(count: 0), persistence: Persistence(storage: reopened, key: "k"))
    #expect(again.storedSnapshot == StateUpdate(sequence: 10, state: Tally(count: 10)))
    try reopened.remove("k")
    #expect(reopened.history("k").isEmpty, "a removed key forgets its history")
    await again.close()
    reopened.close()
  }

  /// Kept values lie whole in one byte ring per key, which wraps round its end and grows when
  /// a value finds no room: values of every length come back whole, before and after such
  /// moves, and after reopening.
  @Test func historyOfValuesOfEveryLengthOutlivesItsLogsMoves() throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let limits = JournalStorage.Limits(history: 3)
    let storage = try JournalStorage(directory: directory, limits: limits)
    func value(_ n: Int) -> Data { Data(String(repeating: "\(n % 10)", count: n).utf8) }
    for n in 1...40 {
      try storage.write("k", value(n))
      #expect(storage.history("k") == (max(1, n - 2)...n).map(value), "after \(n)")
    }
    #expect(try storage.read("k") == value(40))
    storage.close()
    let reopened = try JournalStorage(directory: directory, limits: limits)
    #expect(reopened.history("k") == [value(38), value(39), value(40)])
    reopened.close()
  }

  @Test func withoutHistoryOnlyTheNewestStateOfABatchIsWritten() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let storage = try JournalStorage(directory: directory, limits: .init(history: 0))
    let cubit = Cubit<Tally>(
      initialState: Tally(count: 0), persistence: Persistence(storage: storage, key: "k"))
    storage.beginBatch()
    for count in 1...3 { try cubit.emit(Tally(count: count)) }
    storage.commitBatch()
    #expect(await cubit.waitUntilStored() == nil)
    #expect(storage.history("k").isEmpty)
    #expect(
      String(decoding: try #require(try storage.read("k")), as: UTF8.self)
        == #"{"schemaVersion":2,"seq":3,"state":{"count":3}}"#)
    await cubit.close()
    storage.close()
  }

  @Test func restoreIsAChangeThatUndoReverts() {
    let cubit = Cubit<Int>(initialState: 0, history: .limit(5))
    #expect(cubit.restore(5) == 1)
    #expect(cubit.restore(5) == nil, "the state it has: no change")
    #expect(cubit.undo())
    #expect(cubit.currentSnapshot == StateUpdate(sequence: 2, state: 0))
  }
}
