import Foundation
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// File names and the few system calls ``JournalStorage`` needs, each failure an error that
/// names the file and the system's reason.
enum JournalFiles {
  static func journalName(_ generation: UInt64) -> String { "journal.\(padded(generation)).log" }
  static func snapshotName(_ generation: UInt64) -> String {
    "snapshot.\(padded(generation)).bin"
  }
  static func temporarySnapshotName(_ generation: UInt64) -> String {
    ".snapshot.\(padded(generation)).tmp"
  }

  /// The generation in a name made by ``journalName(_:)`` or ``snapshotName(_:)``.
  static func generation(of name: String, prefix: String, suffix: String) -> UInt64? {
    guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { return nil }
    let digits = name.dropFirst(prefix.count).dropLast(suffix.count)
    guard digits.count == 8, digits.allSatisfy(\.isASCII) else { return nil }
    return UInt64(digits)
  }

  private static func padded(_ generation: UInt64) -> String {
    let digits = String(generation)
    return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
  }

  struct FileError: Error, CustomStringConvertible {
    let description: String
  }

  static func failure(_ what: String, _ path: String) -> FileError {
    FileError(description: "\(what) \(path): \(String(cString: strerror(errno)))")
  }

  /// Writes all of `bytes` at `offset`. (`path` is built only for an error's message.)
  static func write(
    _ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int, path: @autoclosure () -> String
  ) throws {
    let written = writeAll(bytes) { rest, done in
      pwrite(fd, rest.baseAddress, rest.count, off_t(offset + done))
    }
    guard written else { throw failure("cannot write", path()) }
  }

  static func syncData(_ fd: Int32, path: @autoclosure () -> String) throws {
    guard fdatasync(fd) == 0 else { throw failure("cannot sync", path()) }
  }

  static func syncDirectory(_ path: String) throws {
    let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw failure("cannot open", path) }
    defer { close(fd) }
    guard fsync(fd) == 0 else { throw failure("cannot sync", path) }
  }

  /// Writes a complete file under a temporary name, syncs it, renames it into place and syncs
  /// the directory: after a crash the file is there whole, or not at all.
  static func writeAtomically(
    _ bytes: [UInt8], directory: String, name: String, temporary: String
  )
    throws
  {
    let temporaryPath = directory + "/" + temporary
    let fd = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw failure("cannot create", temporaryPath) }
    do {
      try bytes.withUnsafeBytes { try write(fd, $0, at: 0, path: temporaryPath) }
      guard fsync(fd) == 0 else { throw failure("cannot sync", temporaryPath) }
      close(fd)
    } catch {
      close(fd)
      unlink(temporaryPath)
      throw error
    }
    guard rename(temporaryPath, directory + "/" + name) == 0 else {
      let error = failure("cannot rename into place", temporaryPath)
      unlink(temporaryPath)
      throw error
    }
    try syncDirectory(directory)
  }

  /// Creates a journal file holding only its header, synced with its directory entry.
  static func createJournal(directory: String, generation: UInt64) throws -> Int32 {
    let path = directory + "/" + journalName(generation)
    let fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw failure("cannot create", path) }
    do {
      try JournalFormat.journalMagic.withUnsafeBytes { try write(fd, $0, at: 0, path: path) }
      guard fsync(fd) == 0 else { throw failure("cannot sync", path) }
      try syncDirectory(directory)
    } catch {
      close(fd)
      throw error
    }
    return fd
  }

  /// The whole file, or nil when it does not exist.
  static func read(_ path: String) throws -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    if fd < 0 {
      if errno == ENOENT { return nil }
      throw failure("cannot open", path)
    }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else { throw failure("cannot stat", path) }
    let size = Int(status.st_size)
    var bytes = [UInt8](repeating: 0, count: size)
    var done = 0
    try bytes.withUnsafeMutableBytes { buffer in
      while done < size {
        let n = retryingOnInterrupt { Glibc.read(fd, buffer.baseAddress! + done, size - done) }
        if n < 0 { throw failure("cannot read", path) }
        if n == 0 { break }
        done += n
      }
    }
    if done < size { bytes.removeLast(size - done) }
    return bytes
  }

  static func closeFile(_ fd: Int32) { close(fd) }

  /// A free name `<name>.corrupt-N` in `directory`.
  static func asideName(for name: String, in directory: String) -> String {
    var n = 1
    while access(directory + "/" + name + ".corrupt-\(n)", F_OK) == 0 { n += 1 }
    return name + ".corrupt-\(n)"
  }
}
