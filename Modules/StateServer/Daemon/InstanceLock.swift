import BlocCore
import Glibc
import SystemCalls

/// An exclusive `flock` on a lock file, held (fd open) for the daemon's whole life and released
/// by the kernel if it crashes: `<socket>.lock` makes one daemon own a socket path,
/// `<state directory>/daemon.lock` one daemon own a state directory.
///
/// The file records its owner (pid first, then what the owner adds, one item per line), so a
/// refused second daemon can name it. `release` unlinks the file, then unlocks.
final class InstanceLock: Sendable {
  /// Who holds a lock, as its file records it.
  struct Owner: Equatable {
    var pid: Int32?
    /// The lines after the pid.
    var details: [String]
  }

  let path: String
  private let fd: Int32
  private let released = Locked(false)

  private init(path: String, fd: Int32) {
    self.path = path
    self.fd = fd
  }

  /// Takes the lock for `socketPath`, or throws `ServerError.alreadyRunning`.
  static func acquire(forSocket socketPath: String) throws -> InstanceLock {
    try acquire(at: socketPath + ".lock", details: []) { owner in
      ServerError.alreadyRunning(socketPath: socketPath, pid: owner.pid)
    }
  }

  /// Takes the lock on the file at `path` and records this process's pid and `details`, or
  /// throws what `refused` makes of the current owner.
  static func acquire(
    at path: String, details: [String], refused: (Owner) -> ServerError
  ) throws -> InstanceLock {
    // A previous owner unlinks the file before unlocking; if we locked a file that was
    // unlinked meanwhile, the lock guards nothing, so retry on the current file.
    for _ in 0..<8 {
      let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
      guard fd >= 0 else { throw ServerError.systemCall("open", path: path, errno: errno) }
      if retryingOnInterrupt({ flock(fd, LOCK_EX | LOCK_NB) }) != 0 {
        let code = errno
        let owner = readOwner(fd)
        close(fd)
        if code == EWOULDBLOCK { throw refused(owner) }
        throw ServerError.systemCall("flock", path: path, errno: code)
      }
      guard isStillLinked(fd, path) else {
        close(fd)
        continue
      }
      let lock = InstanceLock(path: path, fd: fd)
      lock.record(details)
      return lock
    }
    throw ServerError.systemCall("flock", path: path, errno: EAGAIN)
  }

  /// Replaces what the file records after the pid.
  func record(_ details: [String]) {
    let text = Array((["\(getpid())"] + details).map { $0 + "\n" }.joined().utf8)
    _ = ftruncate(fd, 0)
    _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
  }

  /// Unlinks the lock file, then releases the lock. Idempotent.
  func release() {
    let first = released.withLock { done in
      defer { done = true }
      return !done
    }
    guard first else { return }
    unlink(path)
    close(fd)
  }

  private static func isStillLinked(_ fd: Int32, _ path: String) -> Bool {
    var opened = stat()
    var current = stat()
    guard fstat(fd, &opened) == 0, lstat(path, &current) == 0 else { return false }
    return opened.st_dev == current.st_dev && opened.st_ino == current.st_ino
  }

  private static func readOwner(_ fd: Int32) -> Owner {
    var bytes = [UInt8](repeating: 0, count: 4096)
    let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return Owner(pid: nil, details: []) }
    let lines = String(decoding: bytes[0..<count], as: UTF8.self).split(separator: "\n")
    return Owner(
      pid: lines.first.flatMap { Int32($0.trimmingWhitespace()) },
      details: lines.dropFirst().map(String.init))
  }
}

extension StringProtocol {
  /// The string without leading and trailing ASCII whitespace (Foundation-free).
  func trimmingWhitespace() -> SubSequence {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
    guard let first = firstIndex(where: { !isSpace($0) }) else { return self[endIndex...] }
    let last = lastIndex(where: { !isSpace($0) })!
    return self[first...last]
  }
}
