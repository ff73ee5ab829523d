import BlocCore
import Foundation
import Glibc
import SystemCalls

/// The daemon's listening Unix socket plus the instance lock that guards its path.
///
/// `open` either adopts a systemd-activated socket or binds a new one:
/// lock `<path>.lock` → recover a stale socket file → socket → fchmod 0600 → bind → listen.
/// The descriptor is non-blocking and close-on-exec.
public final class ListeningSocket: Sendable {
  /// Path of the socket file (for an activated socket, the path systemd bound when known).
  public let path: String
  /// The listening descriptor; owned by the listener.
  public let fileDescriptor: Int32
  /// True when the socket came from systemd; then it is never unlinked by us.
  public let isSocketActivated: Bool

  private let lock: InstanceLock
  private let closed = Locked((socket: false, released: false))

  private init(path: String, fd: Int32, activated: Bool, lock: InstanceLock) {
    self.path = path
    self.fileDescriptor = fd
    self.isSocketActivated = activated
    self.lock = lock
  }

  /// Opens the listener for `path`. `environment` is consulted for socket activation
  /// (LISTEN_PID/LISTEN_FDS); when it is used, those variables are removed from the
  /// process environment. Throws `ServerError` with a user-facing description.
  public static func open(
    path: String,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    backlog: Int32 = ServerConfiguration.systemMaximumBacklog
  ) throws -> ListeningSocket {
    if let inherited = SocketActivation.inheritedDescriptor(
      environment: environment, processID: getpid())
    {
      SocketActivation.clearProcessEnvironment()
      return try adopt(inherited, configuredPath: path)
    }
    try UnixSocketAddress.validate(path)
    let lock = try InstanceLock.acquire(forSocket: path)
    do {
      try removeStaleSocket(at: path)
      let fd = try bindSocket(at: path, backlog: backlog)
      return ListeningSocket(path: path, fd: fd, activated: false, lock: lock)
    } catch {
      lock.release()
      throw error
    }
  }

  /// Stops accepting: closes the listening descriptor. The socket file stays until `release`.
  func closeSocket() {
    let first = closed.withLock { state in
      defer { state.socket = true }
      return !state.socket
    }
    if first { Glibc.close(fileDescriptor) }
  }

  /// Unlinks the socket file (unless activated) and the lock file, then drops the lock.
  func release() {
    let first = closed.withLock { state in
      defer { state.released = true }
      return !state.released
    }
    guard first else { return }
    if !isSocketActivated { unlink(path) }
    lock.release()
  }

  /// Closes the socket and releases everything it holds. Idempotent.
  public func close() {
    closeSocket()
    release()
  }

  private static func adopt(_ fd: Int32, configuredPath: String) throws -> ListeningSocket {
    guard isListeningSocket(fd) else {
      throw ServerError.invalidState(
        "socket activation: descriptor \(fd) passed by the service manager is not a "
          + "listening socket; check the .socket unit (ListenStream=, Accept=no)")
    }
    let path = UnixSocketAddress.boundPath(of: fd) ?? configuredPath
    let lock: InstanceLock
    do {
      lock = try InstanceLock.acquire(forSocket: path)
    } catch {
      Glibc.close(fd)
      throw error
    }
    guard makeNonBlockingCloseOnExec(fd) else {
      let code = errno
      lock.release()
      Glibc.close(fd)
      throw ServerError.systemCall("fcntl", path: path, errno: code)
    }
    return ListeningSocket(path: path, fd: fd, activated: true, lock: lock)
  }

  private static func isListeningSocket(_ fd: Int32) -> Bool {
    var accepting: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    return getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &length) == 0 && accepting == 1
  }

  /// A socket file nobody listens on (ECONNREFUSED) is left by a crashed daemon: unlink it.
  /// A live one is refused, and so is anything that is not a socket.
  private static func removeStaleSocket(at path: String) throws {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      if errno == ENOENT { return }
      throw ServerError.systemCall("lstat", path: path, errno: errno)
    }
    guard info.st_mode & S_IFMT == S_IFSOCK else { throw ServerError.notASocket(path: path) }
    let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard probe >= 0 else { throw ServerError.systemCall("socket", path: nil, errno: errno) }
    defer { Glibc.close(probe) }
    // Non-blocking, so a live daemon with a full backlog answers EAGAIN instead of hanging us.
    _ = makeNonBlockingCloseOnExec(probe)
    let status = try UnixSocketAddress.with(path) { address, length in
      retryingOnInterrupt { connect(probe, address, length) }
    }
    if status == 0 || errno == EAGAIN || errno == EINPROGRESS {
      throw ServerError.socketInUse(socketPath: path)
    }
    guard errno == ECONNREFUSED else {
      throw ServerError.systemCall("connect", path: path, errno: errno)
    }
    guard unlink(path) == 0 || errno == ENOENT else {
      throw ServerError.systemCall("unlink", path: path, errno: errno)
    }
  }

  private static func bindSocket(at path: String, backlog: Int32) throws -> Int32 {
    let type = SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue
    let fd = socket(AF_UNIX, Int32(type), 0)
    guard fd >= 0 else { throw ServerError.systemCall("socket", path: nil, errno: errno) }
    do {
      // Linux creates the socket file with the socket inode's mode (minus umask), so
      // restricting it before bind leaves no window where others could connect.
      guard fchmod(fd, 0o600) == 0 else {
        throw ServerError.systemCall("fchmod", path: path, errno: errno)
      }
      let bound = try UnixSocketAddress.with(path) { bind(fd, $0, $1) }
      guard bound == 0 else { throw ServerError.systemCall("bind", path: path, errno: errno) }
      guard listen(fd, backlog) == 0 else {
        let code = errno
        unlink(path)
        throw ServerError.systemCall("listen", path: path, errno: code)
      }
      return fd
    } catch {
      Glibc.close(fd)
      throw error
    }
  }
}
