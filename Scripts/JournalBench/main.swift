// journal-bench: how long opening a JournalStorage takes when its journal holds many records
// (default 1,000,000): the daemon's recovery time after a crash between two snapshots.
// Writes the journal in the current directory (Scripts/bench runs it on the data disk).
//
//   swift run -c release journal-bench [RECORDS]
import BlocCore
import BlocJournal
import Dispatch
import Foundation

let records = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 1_000_000
let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
  .appendingPathComponent("journal-bench-\(ProcessInfo.processInfo.processIdentifier)")
defer { try? FileManager.default.removeItem(at: directory) }

// No compaction, so every record stays in the journal to be replayed.
let unlimited = JournalStorage.Limits(records: .max, bytes: .max)
let writing = try JournalStorage(directory: directory, sync: .deferred, limits: unlimited)
let start = ContinuousClock.now
for n in 0..<records {
  // What the daemon writes: mostly the counter, now and then the settings.
  let (key, value) =
    n % 10 == 9
    ? ("settings", #"{"schemaVersion":1,"state":{"counterStep":\#(n % 7 + 1)}}"#)
    : ("counter", #"{"schemaVersion":1,"state":{"count":\#(n)}}"#)
  writing.write(key, Data(value.utf8)) { error in
    if let error { fatalError("cannot write the journal: \(error)") }
  }
}
writing.close()
let written = ContinuousClock.now - start
let journal = try FileManager.default.contentsOfDirectory(atPath: directory.path)
  .first { $0.hasSuffix(".log") }!
let bytes =
  (try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(journal).path)[
    .size] as? Int) ?? 0
print(
  "wrote \(records) records (\(bytes / 1_000_000) MB) in \(written), \(writing.batchesWritten) batches"
)

var lastCount = records - 1
while lastCount % 10 == 9 { lastCount -= 1 }
var timings: [Double] = []
for _ in 0..<5 {
  let clock = ContinuousClock.now
  let storage = try JournalStorage(directory: directory, sync: .deferred, limits: unlimited)
  let elapsed = ContinuousClock.now - clock
  let count = try storage.read("counter").map { String(decoding: $0, as: UTF8.self) } ?? ""
  precondition(count.contains(":\(lastCount)}"), "recovered \(count), expected count \(lastCount)")
  storage.close()
  timings.append(
    Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}
timings.sort()
let median = timings[timings.count / 2]
print(
  "recovery of \(records) records: median \(String(format: "%.3f", median)) s "
    + "(runs: \(timings.map { String(format: "%.3f", $0) }.joined(separator: ", ")))")
print("result recovery_seconds \(String(format: "%.3f", median))")
