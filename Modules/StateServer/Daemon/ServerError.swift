import SystemCalls

/// Why the daemon's socket could not be set up. Descriptions are meant for users.
public enum ServerError: Error, Equatable, CustomStringConvertible {
  /// Another daemon holds the instance lock for this socket path.
  case alreadyRunning(socketPath: String, pid: Int32?)
  /// Another daemon holds the lock of this state directory; `socketPath` is where it serves.
  case stateDirectoryInUse(directory: String, pid: Int32?, socketPath: String?)
  /// A directory cannot be created or used, with a one-line reason.
  case unusableDirectory(path: String, reason: String)
  /// Something is accepting connections on the socket even though the lock was free.
  case socketInUse(socketPath: String)
  /// The socket path exists but is not a socket; it is never deleted.
  case notASocket(path: String)
  /// The path does not fit in `sockaddr_un.sun_path`.
  case socketPathTooLong(path: String, maxBytes: Int)
  /// A directory that should be private to the owner is not.
  case unsafeDirectory(path: String, reason: String)
  /// Misuse or misconfiguration, e.g. `start()` called twice or after `shutdown()`.
  case invalidState(String)
  /// A system call failed.
  case systemCall(String, path: String?, errno: Int32)

  public var description: String {
    switch self {
    case .alreadyRunning(let path, let pid):
      let who = pid.map { " (pid \($0))" } ?? ""
      return "another daemon is already running on \(path)\(who)"
    case .stateDirectoryInUse(let directory, let pid, let socketPath):
      let who = [pid.map { "pid \($0)" }, socketPath.map { "socket \($0)" }].compactMap { $0 }
      let owner = who.isEmpty ? "" : " (\(who.joined(separator: ", ")))"
      return "another daemon is already running on the state directory \(directory)\(owner); "
        + "stop it, or use another state directory"
    case .unusableDirectory(let path, let reason):
      return "cannot use the directory \(path): \(reason)"
    case .socketInUse(let path):
      return "another daemon is accepting connections on \(path); refusing to replace it"
    case .notASocket(let path):
      return "\(path) exists and is not a socket; refusing to remove it"
    case .socketPathTooLong(let path, let maxBytes):
      return
        "socket path is \(path.utf8.count) bytes, the limit is \(maxBytes): \(path) — choose a shorter path"
    case .unsafeDirectory(let path, let reason):
      return "unsafe socket directory \(path): \(reason)"
    case .invalidState(let message):
      return message
    case .systemCall(let call, let path, let code):
      let target = path.map { " \($0)" } ?? ""
      return "\(call)\(target) failed: \(errnoDescription(code)) (errno \(code))"
    }
  }
}
