import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension JournalStorage {
  /// The journal as it is now, for a daemon's `info`: its file, size and records, and the
  /// newest snapshot.
  public struct Status: Sendable, Equatable {
    /// The file being appended to, e.g. `journal.00000003.log`.
    public var journal: String
    /// The bytes of its header and records (with `.always` the file is longer by the zeros
    /// written ahead of the records).
    public var journalBytes: Int
    /// Records written to it (since the last snapshot).
    public var records: Int
    /// Batches written since the storage was opened.
    public var batches: Int
    /// Whether a snapshot is being written in the background now.
    public var compacting: Bool
    /// The newest complete snapshot, if any.
    public var snapshot: Snapshot?
  }

  /// A snapshot file in the state directory.
  public struct Snapshot: Sendable, Equatable {
    /// Its name, e.g. `snapshot.00000002.bin`.
    public var name: String
    /// Its size in bytes.
    public var bytes: Int
    /// When it was written, in seconds since the Unix epoch.
    public var modified: Int
  }

  /// The journal's current file and the newest snapshot in the state directory. Never waits
  /// for a batch being written or synced: it shows the journal as the last batch left it.
  public var status: Status {
    let journal = file.numbers
    return Status(
      journal: JournalFiles.journalName(journal.generation), journalBytes: journal.length,
      records: journal.records, batches: journal.batches, compacting: journal.compacting,
      snapshot: newestSnapshot(before: journal.generation))
  }

  /// The snapshot of the highest generation below `generation` (the one being written has
  /// only a temporary name until it is complete).
  private func newestSnapshot(before generation: UInt64) -> Snapshot? {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    let newest =
      names
      .compactMap { name in
        JournalFiles.generation(of: name, prefix: "snapshot.", suffix: ".bin").map { ($0, name) }
      }
      .filter { $0.0 < generation }
      .max { $0.0 < $1.0 }
    guard let (_, name) = newest else { return nil }
    var info = stat()
    guard stat(path + "/" + name, &info) == 0 else { return nil }
    return Snapshot(
      name: name, bytes: Int(info.st_size), modified: Int(info.st_mtim.tv_sec))
  }
}
