import Glibc
import Wire

/// The messages (and hints) that `statectl` prints on stderr when something fails.
public enum Diagnostics {
  /// The code a daemon sends (without an id) to a user it does not serve, before closing.
  /// StateServer defines it; Wire's `ErrorCode` does not (yet).
  static let permissionDenied: ErrorCode = "permission_denied"

  /// How to start the daemon on `socket`: the default path needs no option; a path from
  /// --socket or $STATED_SOCKET is passed on, so that the daemon listens where statectl looks.
  public static func startHint(_ socket: SocketPath) -> String {
    let option: String
    switch socket.source {
    case .option, .environment: option = " --socket " + shellQuoted(socket.path)
    case .runtimeDirectory, .temporaryFallback: option = ""
    }
    return "is stated running? start it with: stated\(option)  (or: swift run stated\(option))"
  }

  /// `text` as one shell word: as it is when it holds only safe characters, else in single
  /// quotes.
  static func shellQuoted(_ text: String) -> String {
    let safe = text.utf8.allSatisfy { byte in
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"):
        true
      default: "/._-+:@%,=".utf8.contains(byte)
      }
    }
    if safe && !text.isEmpty { return text }
    return "'"
      + text.split(separator: "'", omittingEmptySubsequences: false).joined(
        separator: #"'\''"#) + "'"
  }

  /// Cannot connect: what happened at which path, why that path, and what to do.
  public static func unreachable(_ error: ConnectionError, socket: SocketPath) -> String {
    let path = socket.path
    let hint: String
    switch error.kind {
    case .socketMissing:
      hint = "no daemon socket at \(path) (\(socket.origin));\n  \(startHint(socket))"
    case .connectionRefused where !isSocket(path):
      return """
        statectl: daemon unreachable: cannot connect to \(path): not a socket
        hint: that path is \(socket.origin); pass the daemon's socket with --socket
        """
    case .connectionRefused:
      hint =
        "\(path) is a stale socket: nobody listens on it (the daemon stopped or crashed);\n  "
        + startHint(socket) + " -- it replaces the stale socket"
    case .permissionDenied:
      hint =
        "permission denied on \(path) or a directory above it; the daemon's socket is\n"
        + "  private to the user running it: run statectl as that user, or pass --socket"
    case .invalidPath:
      hint = "the socket path (\(socket.origin)) must be a file path of at most 107 bytes"
    case .timedOut:
      hint = "the daemon did not accept the connection in time; is it stuck?"
    default:
      hint = startHint(socket)
    }
    return "statectl: daemon unreachable: \(error.message)\nhint: \(hint)"
  }

  /// The connection failed after connecting.
  public static func conversation(_ error: ConnectionError, timeout: Duration?) -> String {
    switch error.kind {
    case .timedOut:
      let seconds = timeout.map { " within \(formatted($0))" } ?? ""
      return "statectl: the daemon did not answer\(seconds) (see --timeout)"
    case .malformedMessage, .frameTooLarge:
      return
        "statectl: \(error.message)\nhint: does the daemon speak protocol v\(ProtocolInfo.version)? try: statectl ping"
    default:
      return "statectl: \(error.message)"
    }
  }

  /// The daemon refused the request: its code and message, with a hint where one helps.
  public static func refused(_ error: WireError, op: String, fields: JSONObject) -> String {
    var text = "statectl: \(error.code.rawValue): \(error.message)"
    let feature = fields["feature"]?.stringValue ?? "FEATURE"
    switch error.code {
    case .unknownFeature:
      text += "\nhint: list the features with: statectl features"
    case .invalidField where op == Request.Op.send:
      if let hint = TypedFieldHint.hint(for: error, event: fields["event"]?.objectValue) {
        text += "\nhint: " + hint
      } else {
        text += "\nhint: list its events and their fields with: statectl describe \(feature)"
      }
    case .unknownEvent,
      .missingField where op == Request.Op.send:
      text += "\nhint: list its events and their fields with: statectl describe \(feature)"
    case permissionDenied:
      text += "\nhint: the daemon serves only the user running it: run statectl as that user"
    case .unknownOp:
      text += "\nhint: the daemon does not know '\(op)'; check its version with: statectl ping"
    default:
      break
    }
    return text
  }

  /// Whether `path` names a socket file (connect(2) also says "refused" for other files).
  static func isSocket(_ path: String) -> Bool {
    var info = stat()
    guard stat(path, &info) == 0 else { return true }  // vanished meanwhile: keep "stale"
    return info.st_mode & S_IFMT == S_IFSOCK
  }

  private static func formatted(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let milliseconds = attoseconds / 1_000_000_000_000_000
    return milliseconds == 0
      ? "\(seconds) s"
      : "\(seconds).\(milliseconds / 100)\(milliseconds / 10 % 10)\(milliseconds % 10) s"
  }
}
