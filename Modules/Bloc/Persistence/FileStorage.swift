import Foundation
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// Stores each value as `<directory>/<key>.json`, replaced atomically: write a temporary file,
/// fsync it, rename it over the old one, fsync the directory.
///
/// With ``SyncPolicy/deferred`` the fsyncs are left to ``sync()`` (call it periodically, as
/// Redis' `appendfsync everysec` does): a write still replaces the file atomically and survives
/// the process being killed, but an operating-system crash may lose the last interval.
public struct FileStorage: BlocStorage {
  /// When written data is forced to the device.
  public enum SyncPolicy: String, Sendable, CaseIterable {
    /// Every write is synced before it completes (the default).
    case always
    /// Writes complete once written; ``FileStorage`` syncs when ``FileStorage/sync()`` is
    /// called, `JournalStorage` (module `BlocJournal`) by itself within a second (and at its
    /// `close()`).
    case deferred
  }

  public let directory: URL
  public let syncPolicy: SyncPolicy
  // Kept as a string: building URLs on every write showed up in profiles.
  private let directoryPath: String

  /// Creates the directory (mode 0700) when it is missing.
  public init(directory: URL, sync: SyncPolicy = .always) throws {
    self.directory = directory
    self.syncPolicy = sync
    self.directoryPath = directory.path
    try FileManager.default.createDirectory(
      at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
  }

  public func url(for key: String) -> URL { directory.appendingPathComponent("\(key).json") }

  public func read(_ key: String) throws -> Data? {
    try Self.validate(key)
    let path = url(for: key).path
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    return try Data(contentsOf: URL(fileURLWithPath: path))
  }

  public func write(_ key: String, _ data: Data) throws {
    try Self.validate(key)
    let target = directoryPath + "/" + key + ".json"
    let temporary = directoryPath + "/." + key + ".json.tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw failure(key, "open \(temporary)") }
    var ok = data.withUnsafeBytes { writeAll(fd, $0) }
    ok = ok && (syncPolicy == .deferred || fsync(fd) == 0)
    let saved = errno
    close(fd)
    guard ok else {
      errno = saved
      unlink(temporary)
      throw failure(key, "write \(temporary)")
    }
    guard rename(temporary, target) == 0 else { throw failure(key, "rename to \(target)") }
    if syncPolicy == .always { syncDirectory() }
  }

  /// Forces every stored value, and the directory entries naming them, to the device.
  public func sync() {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    for name in names where name.hasSuffix(".json") && !name.hasPrefix(".") {
      let fd = open(directory.appendingPathComponent(name).path, O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else { continue }
      fsync(fd)
      close(fd)
    }
    syncDirectory()
  }

  private func syncDirectory() {
    let dirFD = open(directoryPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if dirFD >= 0 {
      fsync(dirFD)
      close(dirFD)
    }
  }

  public func remove(_ key: String) throws {
    try Self.validate(key)
    unlink(url(for: key).path)
  }

  /// Removes every `<key>.json` of the directory except values kept aside as unreadable.
  public func removeAll() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: directoryPath)
    for name in names where name.hasSuffix(".json") && !name.hasPrefix(".") {
      guard !name.contains(".unreadable-") else { continue }
      guard unlink(directoryPath + "/" + name) == 0 || errno == ENOENT else {
        throw failure(String(name.dropLast(5)), "unlink \(directoryPath)/\(name)")
      }
    }
    if syncPolicy == .always { syncDirectory() }
  }

  public func keepAside(_ key: String) throws -> String {
    try Self.validate(key)
    var n = 1
    var aside = url(for: "\(key).unreadable-\(n)")
    while FileManager.default.fileExists(atPath: aside.path) {
      n += 1
      aside = url(for: "\(key).unreadable-\(n)")
    }
    guard rename(url(for: key).path, aside.path) == 0 else {
      throw failure(key, "rename to \(aside.path)")
    }
    return aside.path
  }

  private func failure(_ key: String, _ what: String) -> PersistenceError {
    .writeFailed(key: key, reason: "\(what): \(String(cString: strerror(errno)))")
  }

  /// Throws ``PersistenceError/invalidKey(_:)`` unless `key` is 1 to 245 bytes of ASCII
  /// letters, digits, `.`, `-` and `_`, not starting with `.`: a key names the file
  /// `<key>.json` (and, while it is written, `.<key>.json.tmp`, which a file name's 255 bytes
  /// must hold), so it may hold no `/` and cannot hide among the temporary files.
  public func checkKey(_ key: String) throws { try Self.validate(key) }

  package static func validate(_ key: String) throws { try validate(key, maxBytes: 245) }

  /// ``checkKey(_:)``'s rule with a length of the caller's (`JournalStorage`'s keys are no
  /// file names: up to 255 bytes).
  package static func validate(_ key: String, maxBytes: Int) throws {
    let allowed = key.utf8.allSatisfy { byte in
      (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
        || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2E || byte == 0x2D || byte == 0x5F
    }
    guard allowed, !key.isEmpty, !key.hasPrefix("."), key.utf8.count <= maxBytes else {
      throw PersistenceError.invalidKey(key)
    }
  }
}
