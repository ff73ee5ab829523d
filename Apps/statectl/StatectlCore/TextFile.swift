import Glibc
import SystemCalls

/// Files for `monitor --record`, `replay` and `export-test`, with the C library (statectl links
/// no Foundation).
enum TextFile {
  /// A file that could not be read or written, with what to do about it.
  struct Problem: Error, Equatable {
    var message: String
  }

  /// The bytes of the file at `path`.
  static func read(_ path: String) throws(Problem) -> [UInt8] {
    let fd = retryingOnInterrupt { open(path, O_RDONLY | O_CLOEXEC) }
    guard fd >= 0 else { throw Problem(message: "cannot read \(path): \(errnoDescription(errno))") }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { buffer in
        retryingOnInterrupt { Glibc.read(fd, buffer.baseAddress, buffer.count) }
      }
      if count < 0 { throw Problem(message: "cannot read \(path): \(errnoDescription(errno))") }
      if count == 0 { return bytes }
      bytes += chunk[..<count]
    }
  }

  /// Writes `text` to `path`, replacing what was there.
  static func write(_ text: String, to path: String) throws(Problem) {
    let writer = try LineWriter(creating: path)
    defer { writer.close() }
    try writer.write(Array(text.utf8))
  }
}

/// A file written a line at a time, each with one write(2): a process stopped at any moment
/// leaves whole lines, and at most a torn last one (which readers ignore).
final class LineWriter {
  let path: String
  private var fd: Int32

  /// Creates (or truncates) the file at `path`.
  init(creating path: String) throws(TextFile.Problem) {
    self.path = path
    fd = retryingOnInterrupt { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
    guard fd >= 0 else {
      throw TextFile.Problem(message: "cannot write \(path): \(errnoDescription(errno))")
    }
  }

  deinit { close() }

  /// Writes `bytes` (a line with its newline, or a whole text).
  func write(_ bytes: [UInt8]) throws(TextFile.Problem) {
    let written = bytes.withUnsafeBytes { writeAll(fd, $0) }
    guard written else {
      throw TextFile.Problem(message: "cannot write \(path): \(errnoDescription(errno))")
    }
  }

  func close() {
    if fd >= 0 { Glibc.close(fd) }
    fd = -1
  }
}
