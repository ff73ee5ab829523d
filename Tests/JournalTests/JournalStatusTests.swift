import BlocCore
import Foundation
import Testing

@testable import BlocJournal

/// `status` (what a daemon's `info` shows, answered on its event loop) never waits for the
/// journal file's lock, which a batch holds through its write and, under `.always`, its sync;
/// and each answer is one batch's numbers, never a mix of two.
@Suite struct JournalStatusTests {
  @Test func statusAnswersWhileTheFileIsHeld() throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let storage = try JournalStorage(directory: directory, sync: .always)
    defer { storage.close() }
    try storage.write("a", Data("1".utf8))
    let written = storage.status
    #expect(written.records == 1 && written.batches == 1)

    // Another thread holds the file, as a batch does while the disk syncs it.
    let holding = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    Thread {
      storage.file.withLock { _ in
        holding.signal()
        release.wait()
      }
    }.start()
    holding.wait()
    let answered = DispatchSemaphore(value: 0)
    let shown = Locked<JournalStorage.Status?>(nil)
    Thread {
      let status = storage.status
      shown.withLock { $0 = status }
      answered.signal()
    }.start()
    // The timeout only ends a failing run: a passing one is answered at once.
    let inTime = answered.wait(timeout: .now() + 10) == .success
    release.signal()
    if !inTime { answered.wait() }
    #expect(inTime, "status waited for the batch holding the journal file")
    #expect(shown.withLock { $0 } == written)
    #expect(storage.batchesWritten == 1)
  }

  @Test func eachReadShowsOnePublication() {
    let shown = ShownJournal()
    let last = 200_000
    Thread {
      var journal = JournalStorage.OpenJournal(generation: 0, length: 0, records: 0)
      for number in 1...last {
        journal.generation = UInt64(number)
        journal.length = number
        journal.records = number
        journal.batches = number
        journal.compacting = number % 2 == 1
        shown.publish(journal)
      }
    }.start()
    var reads = 0
    var mixed = 0
    while true {
      let numbers = shown.read()
      reads += 1
      let number = numbers.batches
      if numbers.generation != UInt64(number) || numbers.length != number
        || numbers.records != number || numbers.compacting != (number % 2 == 1)
      {
        mixed += 1
      }
      if number == last { break }
    }
    #expect(mixed == 0, "\(mixed) of \(reads) reads mixed two publications")
  }
}
