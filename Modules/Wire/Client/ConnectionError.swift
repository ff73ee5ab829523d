import Glibc  // Linux only, like the daemon

/// Why talking to the daemon's socket failed, with a message a CLI can print.
///
/// The kinds separate the situations that need different advice:
///
/// ```swift
/// do { conn = try WireConnection.connect(path: path) } catch {
///   switch error.kind {
///   case .socketMissing: print("\(error.message)\nhint: start the daemon with `stated`")
///   case .connectionRefused: print("\(error.message)\nhint: stated is not running; remove the stale socket")
///   case .permissionDenied: print("\(error.message)\nhint: check the socket's permissions")
///   default: print(error.message)
///   }
/// }
/// ```
public struct ConnectionError: Error, Hashable, Sendable {
  public enum Kind: Hashable, Sendable {
    /// No socket file at the path (ENOENT, ENOTDIR).
    case socketMissing
    /// A file exists but nobody listens on it: a stale socket (ECONNREFUSED).
    case connectionRefused
    /// The socket or a directory on its path is not accessible (EACCES, EPERM).
    case permissionDenied
    /// The path does not fit in `sockaddr_un` (107 bytes) or contains NUL.
    case invalidPath
    /// A send or receive exceeded the connection's timeout.
    case timedOut
    /// The peer closed the connection (or reset it) mid-conversation.
    case closed
    /// An incoming line exceeded the connection's `maxFrameBytes`.
    case frameTooLarge
    /// An incoming line is not a valid protocol message.
    case malformedMessage
    /// Any other system call failure; see `errno`.
    case system
  }

  public var kind: Kind
  /// The `errno` behind the error, or 0.
  public var errno: Int32
  /// What went wrong, e.g. "cannot connect to /run/stated.sock: no such socket file".
  public var message: String

  public init(_ kind: Kind, errno: Int32 = 0, _ message: String) {
    self.kind = kind
    self.errno = errno
    self.message = message
  }

  /// The error for a failed `connect(2)` to `path` with `errno` `code`.
  ///
  /// ```swift
  /// ConnectionError.connecting(to: "/tmp/s.sock", errno: ECONNREFUSED).kind  // .connectionRefused
  /// ```
  public static func connecting(to path: String, errno code: Int32) -> ConnectionError {
    let prefix = "cannot connect to \(path): "
    switch code {
    case ENOENT, ENOTDIR:
      return ConnectionError(.socketMissing, errno: code, prefix + "no such socket file")
    case ECONNREFUSED:
      return ConnectionError(
        .connectionRefused, errno: code,
        prefix + "connection refused (stale socket file, no daemon listening)")
    case EACCES, EPERM:
      return ConnectionError(.permissionDenied, errno: code, prefix + "permission denied")
    case EAGAIN, ETIMEDOUT:
      return ConnectionError(.timedOut, errno: code, prefix + "timed out")
    default:
      return system(prefix, errno: code)
    }
  }

  /// An error for `errno` after a failed `operation`, e.g. "recv".
  static func system(_ operation: String, errno code: Int32) -> ConnectionError {
    switch code {
    case EAGAIN, EWOULDBLOCK:
      return ConnectionError(.timedOut, errno: code, "\(operation) timed out")
    case EPIPE, ECONNRESET:
      return ConnectionError(.closed, errno: code, "connection closed by the daemon")
    default:
      let reason = String(cString: strerror(code))
      let separator = operation.hasSuffix(" ") ? "" : ": "
      return ConnectionError(.system, errno: code, operation + separator + reason)
    }
  }
}

extension ConnectionError: CustomStringConvertible {
  public var description: String { message }
}
