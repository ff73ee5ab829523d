import Glibc
import Synchronization

/// The exclusive `flock` on `<socket>.lock` that makes one daemon own a socket path.
///
/// The lock file records the owner's pid so a refused second daemon can name it.
/// It is held (fd open) for the daemon's whole life; `release` unlinks then unlocks.
final class InstanceLock: Sendable {
  let path: String
  private let fd: Int32
  private let released = Mutex(false)

  private init(path: String, fd: Int32) {
    self.path = path
    self.fd = fd
  }

  /// Takes the lock for `socketPath`, or throws `ServerError.alreadyRunning`.
  static func acquire(forSocket socketPath: String) throws -> InstanceLock {
    let path = socketPath + ".lock"
    // A previous owner unlinks the file before unlocking; if we locked a file that was
    // unlinked meanwhile, the lock guards nothing, so retry on the current file.
    for _ in 0..<8 {
      let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
      guard fd >= 0 else { throw ServerError.systemCall("open", path: path, errno: errno) }
      if retryingOnInterrupt({ flock(fd, LOCK_EX | LOCK_NB) }) != 0 {
        let code = errno
        let owner = readPID(fd)
        close(fd)
        if code == EWOULDBLOCK {
          throw ServerError.alreadyRunning(socketPath: socketPath, pid: owner)
        }
        throw ServerError.systemCall("flock", path: path, errno: code)
      }
      guard isStillLinked(fd, path) else {
        close(fd)
        continue
      }
      recordPID(fd)
      return InstanceLock(path: path, fd: fd)
    }
    throw ServerError.systemCall("flock", path: path, errno: EAGAIN)
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

  private static func recordPID(_ fd: Int32) {
    let text = Array("\(getpid())\n".utf8)
    _ = ftruncate(fd, 0)
    _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
  }

  private static func readPID(_ fd: Int32) -> Int32? {
    var bytes = [UInt8](repeating: 0, count: 32)
    let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return nil }
    let text = String(decoding: bytes[0..<count], as: UTF8.self)
    return Int32(text.trimmingWhitespace())
  }
}

extension String {
  /// The string without leading and trailing ASCII whitespace (Foundation-free).
  func trimmingWhitespace() -> Substring {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
    guard let first = firstIndex(where: { !isSpace($0) }) else { return "" }
    let last = lastIndex(where: { !isSpace($0) })!
    return self[first...last]
  }
}
