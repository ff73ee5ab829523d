import BlocCore
import BlocJournal
import Foundation
import Testing

/// A persisted bloc's sequence number is stored with its state, so it names one state for good,
/// also across the journal's compaction into snapshots.
@Suite struct JournalSequenceTests {
  @Test func theSequenceContinuesAfterTheJournalIsCompacted() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    // Compacted every 5 records: 12 changes start several journals and snapshots.
    let limits = JournalStorage.Limits(records: 5)
    let storage = try JournalStorage(directory: directory, limits: limits)
    let first = TallyBloc(storage: storage)
    for _ in 0..<12 { #expect(await first.send(.increment).isHandled) }
    await first.close()
    storage.close()
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(files.contains { $0.hasPrefix("snapshot.") }, "compacted: \(files)")
    let reopened = try JournalStorage(directory: directory, limits: limits)
    let second = TallyBloc(storage: reopened)
    #expect(second.storedSnapshot == StateUpdate(sequence: 12, state: Tally(count: 12)))
    await second.close()
    reopened.close()
  }
}
