import BlocCore
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Loads a ``JournalStorage`` directory: the newest readable snapshot, then every newer
/// journal in order. A damaged part (torn tail, flipped byte, garbage) is cut off, kept aside
/// as `<file>.corrupt-N` and described in ``notes``; it never stops the load. A damaged journal
/// end that cannot be kept aside (a full disk) is left in place, in ``damagedTails``.
struct JournalRecovery {
  var values: [String: [UInt8]] = [:]
  /// The values last put under each key, oldest first, at most `historyLimit` (none when 0).
  var retained: [String: RetainedValues] = [:]
  var historyLimit = 0
  /// The snapshot the values start from (0: none).
  var base: UInt64 = 0
  /// The journal to append to, and its valid length (nil: create it).
  var generation: UInt64 = 1
  var length: Int?
  var recordsSinceSnapshot = 0
  var bytesSinceSnapshot = 0
  /// What happened, one line each, for the log.
  var notes: [String] = []
  /// Damaged journal ends that could not be kept aside yet (no room): left in place.
  var damagedTails: [JournalDamagedTail] = []

  static func load(directory: String, historyLimit: Int = 0) throws -> JournalRecovery {
    var recovery = JournalRecovery()
    recovery.historyLimit = historyLimit
    let names = try FileManager.default.contentsOfDirectory(atPath: directory)
    var snapshots: [UInt64] = []
    var journals: [UInt64] = []
    for name in names {
      if let g = JournalFiles.generation(of: name, prefix: "snapshot.", suffix: ".bin") {
        snapshots.append(g)
      } else if let g = JournalFiles.generation(of: name, prefix: "journal.", suffix: ".log") {
        journals.append(g)
      } else if name.hasPrefix(".snapshot.") && name.hasSuffix(".tmp") {
        unlink(directory + "/" + name)  // an interrupted compaction
      }
    }
    if snapshots.isEmpty && journals.isEmpty {
      try recovery.migrateStateFiles(names, directory: directory)
      return recovery
    }
    for generation in snapshots.sorted(by: >) {
      if try recovery.loadSnapshot(generation, directory: directory) {
        recovery.base = generation
        break
      }
    }
    for generation in journals.sorted() where generation > recovery.base {
      recovery.length = try recovery.replay(generation, directory: directory)
      recovery.generation = generation
    }
    if recovery.length == nil { recovery.generation = recovery.base + 1 }
    // Left by a compaction that stopped after writing its snapshot.
    for generation in journals where generation <= recovery.base {
      unlink(directory + "/" + JournalFiles.journalName(generation))
    }
    for generation in snapshots where generation < recovery.base {
      unlink(directory + "/" + JournalFiles.snapshotName(generation))
    }
    return recovery
  }

  /// Reads a snapshot; false (after keeping it aside) when it is damaged.
  private mutating func loadSnapshot(_ generation: UInt64, directory: String) throws -> Bool {
    let name = JournalFiles.snapshotName(generation)
    guard let bytes = try JournalFiles.read(directory + "/" + name) else { return false }
    var values: [String: [UInt8]] = [:]
    var retained: [String: RetainedValues] = [:]
    let limit = historyLimit
    var complete = false
    var damage: String?
    bytes.withUnsafeBytes { buffer in
      guard buffer.starts(with: JournalFormat.snapshotMagic) else {
        damage = "it does not start with the snapshot header"
        return
      }
      var offset = JournalFormat.headerSize
      while let next = JournalFormat.record(in: buffer, at: offset) {
        switch next {
        case .failure(let problem):
          damage = "\(problem) at byte \(offset)"
          return
        case .success(let record):
          if record.kind == .end {
            complete = true
            return
          }
          // A key's retained values come first, oldest first; its value is its last put.
          let key = Self.key(buffer, record)
          let value = [UInt8](buffer[record.value])
          values[key] = value
          if limit > 0 { retained[key, default: RetainedValues(limit: limit)].append(value) }
          offset = record.end
        }
      }
      damage = "it ends before its end record"
    }
    if complete {
      self.values = values
      self.retained = retained
      return true
    }
    let aside = JournalFiles.asideName(for: name, in: directory)
    rename(directory + "/" + name, directory + "/" + aside)
    notes.append(
      "snapshot \(name) is damaged (\(damage ?? "unknown")); kept aside as \(aside), loading an older one"
    )
    return false
  }

  /// Applies one journal's valid records; cuts off and keeps aside a damaged tail. Returns the
  /// valid length.
  private mutating func replay(_ generation: UInt64, directory: String) throws -> Int {
    let name = JournalFiles.journalName(generation)
    let path = directory + "/" + name
    guard let bytes = try JournalFiles.read(path) else { return 0 }
    if bytes.isEmpty {
      notes.append(
        "journal \(name) is empty (a crash right after it was created); nothing to replay")
      return 0
    }
    var latest: [String: Range<Int>?] = [:]
    // Every put of a key since its last remove (the newest `historyLimit` of them are kept).
    var puts: [String: [Range<Int>]] = [:]
    var removed: Set<String> = []
    let limit = historyLimit
    var records = 0
    var valid = 0
    var damage: String?
    bytes.withUnsafeBytes { buffer in
      guard buffer.starts(with: JournalFormat.journalMagic) else {
        damage = "it does not start with the journal header"
        return
      }
      var offset = JournalFormat.headerSize
      valid = offset
      var lastKey: (bytes: Range<Int>, key: String)?
      while let next = JournalFormat.record(in: buffer, at: offset) {
        switch next {
        case .failure(let problem):
          // Zeros written ahead of the records: not damage, where the next record goes.
          if JournalFormat.isZeroTail(buffer, from: offset) { return }
          damage = "\(problem) at byte \(offset)"
          return
        case .success(let record):
          // Most records repeat the previous key: reuse its string.
          let key: String
          if let last = lastKey, buffer[last.bytes].elementsEqual(buffer[record.key]) {
            key = last.key
          } else {
            key = Self.key(buffer, record)
            lastKey = (record.key, key)
          }
          switch record.kind {
          case .put:
            latest[key] = .some(record.value)
            if limit > 0 {
              puts[key, default: []].append(record.value)
              if puts[key]!.count >= 2 * limit { puts[key]!.removeFirst(limit) }
            }
          case .remove:
            latest[key] = .some(nil)
            if limit > 0 {
              puts[key] = []
              removed.insert(key)
            }
          case .end: break
          }
          records += 1
          offset = record.end
          valid = offset
        }
      }
    }
    for (key, range) in latest {
      if let range {
        values[key] = Array(bytes[range])
      } else {
        values[key] = nil
      }
    }
    for key in removed { retained[key] = nil }
    for (key, ranges) in puts {
      for range in ranges.suffix(limit) {
        retained[key, default: RetainedValues(limit: limit)].append(bytes[range])
      }
    }
    recordsSinceSnapshot += records
    bytesSinceSnapshot += valid
    if let damage {
      var tail = JournalDamagedTail(generation: generation, valid: valid)
      let count = bytes.count - valid
      do {
        _ = try tail.setAside(directory: directory)
        notes.append(
          "journal \(name): \(damage); kept the \(records) records before it, cut off the last \(count) bytes and kept them aside as \(tail.aside ?? "?")"
        )
      } catch {
        // A full disk, say: the bytes stay where they are, untouched, until the writer can
        // keep them aside; nothing is appended meanwhile (JournalDamagedTail).
        damagedTails.append(tail)
        notes.append(
          "journal \(name): \(damage); kept the \(records) records before it; cannot keep the last \(count) bytes aside yet (\(error)), so they stay in place, untouched, and every write fails until they can be"
        )
        return valid
      }
    }
    // A journal without a whole header is started afresh by the writer.
    return valid < JournalFormat.headerSize ? 0 : valid
  }

  /// Imports the `<key>.json` files of a directory that `FileStorage` wrote, once, into a
  /// first snapshot; the files are renamed `<key>.json.migrated`.
  private mutating func migrateStateFiles(_ names: [String], directory: String) throws {
    var imported: [String] = []
    for name in names.sorted() where name.hasSuffix(".json") && !name.hasPrefix(".") {
      let key = String(name.dropLast(".json".count))
      guard !key.contains(".unreadable-"), (try? JournalStorage.validate(key)) != nil,
        let bytes = try JournalFiles.read(directory + "/" + name)
      else { continue }
      values[key] = bytes
      imported.append(name)
    }
    guard !imported.isEmpty else { return }
    try JournalFiles.writeAtomically(
      JournalStorage.snapshotBytes(KeptValues(values: values)), directory: directory,
      name: JournalFiles.snapshotName(0), temporary: JournalFiles.temporarySnapshotName(0))
    for name in imported {
      rename(directory + "/" + name, directory + "/" + name + ".migrated")
    }
    notes.append(
      "migrated \(imported.count) state file(s) into the journal: \(imported.joined(separator: ", ")) (renamed to *.json.migrated)"
    )
  }

  private static func key(
    _ buffer: UnsafeRawBufferPointer, _ record: JournalFormat.Record
  )
    -> String
  {
    String(decoding: UnsafeRawBufferPointer(rebasing: buffer[record.key]), as: UTF8.self)
  }
}
