import BlocCore
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Stores every key's values in one append-only journal with group commit: a storage for many
/// blocs (a daemon's features) whose changes must be durable quickly.
///
/// Every write is a record appended to `journal.<generation>.log` with a CRC-32. Writes that
/// arrive while a batch is being written and synced share the next batch: one `write` and,
/// with `FileStorage.SyncPolicy.always`, one `fdatasync` per batch, whatever the number of
/// blocs and changes in it. A write's completion runs once its batch is written (`deferred`:
/// synced within a second) or synced (`always`). A persisted bloc hands over its newest state
/// only when the batch is written, so a bloc that changed many times costs one record. A
/// server brackets the requests of each event-loop turn with ``beginBatch()`` and
/// ``commitBatch()``: the turn's changes share one batch, written on the loop's own thread.
/// With `.always` the records are written over zeros written and synced ahead of them, so that
/// a batch's sync commits its bytes alone, not a new file size; a clean ``close()`` cuts the
/// zeros off.
///
/// When the journal grows past ``Limits``, the writer starts a new journal and a background
/// queue writes every key's newest value to `snapshot.<generation>.bin` (temporary file,
/// fsync, rename), then deletes the older journal: writes continue meanwhile. Opening loads
/// the newest snapshot and replays the newer journals; a torn or corrupt tail is cut off, kept
/// aside as `<file>.corrupt-N` and described in ``recoveryNotes`` (and passed to `log`). When
/// the disk has no room to keep it aside, the storage opens all the same (reads work) and
/// leaves the tail in place, untouched; writes fail until it can be kept aside.
/// A directory that `FileStorage` wrote is migrated on first open.
///
/// ```swift
/// let storage = try JournalStorage(directory: stateDirectory, sync: .always) { line in
///   print("journal: \(line)")
/// }
/// let counter = CounterBloc(storage: storage)
/// let settings = SettingsBloc(storage: storage)  // same journal, same batches
/// …
/// storage.close()  // at shutdown: everything written and synced
/// ```
public final class JournalStorage: BlocStorage, WriteBatching {
  public typealias SyncPolicy = FileStorage.SyncPolicy

  /// When the journal is compacted into a snapshot.
  public struct Limits: Sendable {
    public var records: Int
    public var bytes: Int
    /// How many values are kept per key, the newest (the current value) last, across restarts
    /// and compactions: a bloc stored here then stores every change with its cause and time
    /// (`ChangeHistoryStorage`). 0 keeps none.
    public var history: Int
    public init(records: Int = 200_000, bytes: Int = 32 << 20, history: Int = 1000) {
      self.records = records
      self.bytes = bytes
      self.history = max(0, history)
    }
  }

  public let directory: URL
  public let syncPolicy: SyncPolicy
  public let limits: Limits
  /// What opening the journal found worth telling: migrations, damaged parts cut off.
  public let recoveryNotes: [String]

  let path: String
  let log: @Sendable (String) -> Void
  /// Every key's value and history, updated by the writer after each batch.
  let kept: Locked<KeptValues>
  let queue = Locked(Batch())
  /// Open ``beginBatch()``s: while there are any, new writes wait for ``commitBatch()``. An
  /// atomic, so that a loop's turn begins without a trip to `queue`'s lock; read and lowered
  /// under that lock, where writes are queued and batches taken (a `stage(_:)` that sees no
  /// hold while a turn begins on another thread only starts the writer a moment early).
  let holds = Atomic<Int>(0)
  /// The open journal, and what ``status`` shows of it without waiting for its lock.
  let file: JournalFile
  // Every write, sync and journal switch runs here, one at a time.
  let writer = DispatchQueue(label: "bloc.journal.writer")
  // Snapshots are written here, beside the writer.
  let compactor = DispatchQueue(label: "bloc.journal.compactor", qos: .utility)
  // Signalled when the clients the writer waits for have committed (`Batch.awaited`).
  let gathered = DispatchSemaphore(value: 0)

  struct OpenJournal {
    var fd: Int32 = -1
    var generation: UInt64
    var length: Int
    var records: Int
    /// Written since the last fdatasync (deferred policy).
    var dirty = false
    /// Whether the next batch first looks whether the file was deleted (``reopenIfGone(_:)``):
    /// `.always` looks before every batch, `.deferred` once a second (the sync timer sets this),
    /// which saves a `fstat` per batch; what went meanwhile into a deleted file is still in
    /// `values`, and is rewritten with them.
    var lookDue = true
    /// Batches were appended since the file was last looked for: `close()` looks once more.
    var appendedSinceLook = false
    var compacting = false
    /// Set after a failed write: the file may hold part of it, to be cut before the next.
    var needsCut = false
    var closed = false
    var batches = 0
    /// Damaged ends left in place at start (no room to keep them aside): kept aside before
    /// anything is appended, and until then every batch fails.
    var damagedTails: [JournalDamagedTail] = []
    /// The file holds no whole header (no room to write one at start): written before the
    /// first batch.
    var needsHeader = false
    /// The file holds zeros, written and synced ahead of the records, from `length` up to
    /// here (``zeroAheadIfDue()``); at or below `length`: none.
    var zeroed = 0
    /// Zeros are not written ahead in this file (a nearly full file system, or writing them
    /// failed): it is appended to instead.
    var zeroingStopped = false
  }

  /// Opens (or creates, mode 0700) `directory` and loads what it holds.
  ///
  /// - Parameters:
  ///   - directory: the state directory; created (mode 0700) when missing.
  ///   - sync: `.always` syncs every batch before completing its writes; `.deferred` completes
  ///     them once written and syncs within a second, like Redis' `appendfsync everysec`.
  ///   - limits: when the journal is compacted into a snapshot.
  ///   - log: receives one line per notable event (recovery notes, a failed compaction).
  public init(
    directory: URL, sync: SyncPolicy = .always, limits: Limits = Limits(),
    log: @escaping @Sendable (String) -> Void = { _ in }
  ) throws {
    self.directory = directory
    self.syncPolicy = sync
    self.limits = limits
    self.log = log
    path = directory.path
    try FileManager.default.createDirectory(
      at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let recovery = try JournalRecovery.load(directory: path, historyLimit: limits.history)
    var notes = recovery.notes
    kept = Locked(KeptValues(values: recovery.values, retained: recovery.retained))
    var journal = OpenJournal(
      generation: recovery.generation, length: recovery.length ?? 0,
      records: recovery.recordsSinceSnapshot, damagedTails: recovery.damagedTails)
    // A journal whose damaged end is still in it is opened as it is, whatever its length: the
    // writer keeps that end aside (and writes a header if needed) before appending.
    let damaged = recovery.damagedTails.contains { $0.generation == recovery.generation }
    let name = path + "/" + JournalFiles.journalName(journal.generation)
    if let length = recovery.length, length >= JournalFormat.headerSize || damaged {
      journal.fd = open(name, O_RDWR | O_CLOEXEC)
      guard journal.fd >= 0 else { throw JournalFiles.failure("cannot open", name) }
      journal.needsHeader = length < JournalFormat.headerSize
      // What follows the records is zeros written ahead (recovery read them as the end).
      var status = stat()
      if !damaged, fstat(journal.fd, &status) == 0 { journal.zeroed = Int(status.st_size) }
    } else {
      do {
        journal.fd = try JournalFiles.createJournal(
          directory: path, generation: journal.generation)
        journal.length = JournalFormat.headerSize
      } catch {
        // No room for even a header (a full disk): open all the same, and serve what loaded.
        journal.fd = open(name, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard journal.fd >= 0 else { throw error }
        journal.length = 0
        journal.needsHeader = true
        notes.append(
          "cannot write the header of journal \(JournalFiles.journalName(journal.generation)) yet (\(error)); every write fails until it can"
        )
      }
    }
    recoveryNotes = notes
    file = JournalFile(journal)
    for note in notes { log(note) }
    if sync == .deferred { scheduleDeferredSync() }
  }

  deinit {
    file.withLock { if $0.fd >= 0 { JournalFiles.closeFile($0.fd) } }
  }

  // MARK: BlocStorage

  public var writesAsynchronously: Bool { true }

  /// Throws `PersistenceError.invalidKey` unless `key` is 1 to 255 bytes of ASCII letters,
  /// digits, `.`, `-` and `_`, not starting with `.` (a value kept aside becomes the file
  /// `<key>.unreadable-N.json`).
  public func checkKey(_ key: String) throws { try Self.validate(key) }

  public func read(_ key: String) throws -> Data? {
    try Self.validate(key)
    return kept.withLock { $0.values[key] }.map { Data($0) }
  }

  public func write(
    _ key: String, _ data: Data, completion: @escaping @Sendable ((any Error)?) -> Void
  ) {
    do {
      try Self.validate(key)
    } catch {
      completion(error)
      return
    }
    append([(key, Array(data))], completion)
  }

  public func write(_ key: String, _ data: Data) throws {
    try Self.validate(key)
    try appendAndWait([(key, Array(data))])
  }

  public func remove(_ key: String) throws {
    try Self.validate(key)
    try appendAndWait([(key, nil)])
  }

  /// Moves the value out of the journal into the file `<key>.unreadable-N.json` beside it, for
  /// people to inspect (as `FileStorage` does); returns its path.
  public func keepAside(_ key: String) throws -> String {
    try Self.validate(key)
    let value = kept.withLock { $0.values[key] } ?? []
    var n = 1
    while access(path + "/\(key).unreadable-\(n).json", F_OK) == 0 { n += 1 }
    let name = "\(key).unreadable-\(n).json"
    try JournalFiles.writeAtomically(
      value, directory: path, name: name, temporary: "." + name + ".tmp")
    try appendAndWait([(key, nil)])
    return path + "/" + name
  }

  /// Removes every key (values kept aside as unreadable are files, and stay).
  public func removeAll() throws {
    let keys = kept.withLock { Array($0.values.keys) }
    guard !keys.isEmpty else { return }
    try appendAndWait(keys.map { ($0, nil) })
  }

  /// How many batches were written (each one `write`, and under `.always` one `fdatasync`).
  public var batchesWritten: Int { file.numbers.batches }

  /// Every key with a value.
  public var keys: [String] { kept.withLock { Array($0.values.keys) } }

  // MARK: Durability

  /// Forces everything written so far to the device (with `.deferred`; `.always` already has).
  public func sync() {
    writer.sync { syncNow() }
  }

  /// Writes what is queued, syncs it and closes the journal; later writes fail.
  public func close() {
    writer.sync {}  // a write already queued runs first
    writer.sync {
      file.withLock { journal in
        // What the last second's batches stored must not stay in a deleted file only.
        guard journal.appendedSinceLook, !journal.closed, journal.fd >= 0 else { return }
        do { try reopenIfGone(&journal) } catch { log("\(error)") }
      }
      syncNow()
      file.withLock { journal in
        cutZeros(&journal)
        if journal.fd >= 0 { JournalFiles.closeFile(journal.fd) }
        journal.fd = -1
        journal.closed = true
      }
    }
    compactor.sync {}
  }

  // MARK: Batches

  /// Holds the writes that arrive from now on until ``commitBatch()``, so they share one
  /// batch: for an event loop, around the requests of one turn. Batches may nest.
  public func beginBatch() {
    holds.wrappingAdd(1, ordering: .relaxed)
  }

  /// Ends a ``beginBatch()``; when no other is open, writes what waited in one batch (and with
  /// `.always` syncs it). Should the writer be busy with another batch, that one takes these
  /// writes along instead.
  ///
  /// - Parameter connections: how many clients the caller served in this batch. With more
  ///   than one and `.always`, the batch is written and synced on the journal's writer thread,
  ///   so that the caller's work overlaps the sync and the next batch fills meanwhile; before
  ///   its next sync the writer waits, for at most half the last sync's time, until as many
  ///   clients have come back with their next writes, so that they share that sync.
  ///   Otherwise (and always with `.deferred`, which does not sync per batch) it is written on
  ///   the calling thread and its completions have run when this returns: no thread hand-off,
  ///   as Redis writes its AOF before it replies.
  public func commitBatch(connections: Int) {
    let handOff = connections > 1 && syncPolicy == .always
    // Written here: taken in the same trip to the lock that ends the hold.
    var taken: Batch?
    var wakes = false
    let start = queue.withLock { batch -> Bool in
      let held = holds.wrappingSubtract(1, ordering: .relaxed).newValue > 0
      batch.connections += connections
      if batch.awaited > 0, batch.connections >= batch.awaited {
        batch.awaited = 0
        wakes = true
      }
      guard !batch.isEmpty, batch.startsWriting(held: held) else { return false }
      var fresh: Batch?
      if !handOff { taken = batch.take(recycling: &fresh) }
      return true
    }
    if wakes { gathered.signal() }
    guard start else { return }
    if handOff {
      writer.async { self.writeBatches(gathering: true) }
    } else {
      writeBatches(taken.take())  // moved: a copy left here would make every append copy
    }
  }

  static func validate(_ key: String) throws { try FileStorage.validate(key, maxBytes: 255) }
}

extension JournalStorage: StateSink {}

extension JournalStorage: ChangeHistoryStorage {
  public var historyLimit: Int { limits.history }

  public func history(_ key: String) -> [Data] {
    kept.withLock { $0.retained[key]?.values.map { Data($0) } ?? [] }
  }
}
