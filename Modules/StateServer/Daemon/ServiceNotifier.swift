import Glibc

/// Tells systemd about the service's state (`sd_notify(3)`), for `Type=notify` units: one
/// datagram to the Unix socket named by `$NOTIFY_SOCKET` (a path, or `@name` in the abstract
/// namespace). Without that variable it does nothing, so the daemon runs the same by hand.
///
/// ```swift
/// ServiceNotifier.notify("READY=1")  // once the socket is served
/// ```
public enum ServiceNotifier {
  /// The variable systemd sets for a `Type=notify` service.
  public static let socketVariable = "NOTIFY_SOCKET"

  /// Sends `READY=1` with the daemon's pid: the daemon is serving.
  @discardableResult
  public static func ready() -> Bool {
    notify("READY=1\nMAINPID=\(getpid())")
  }

  /// Sends `state` (newline-separated `KEY=VALUE` assignments). Returns whether it was sent;
  /// false when `$NOTIFY_SOCKET` is unset or unusable (systemd then reports the unit itself).
  @discardableResult
  public static func notify(
    _ state: String,
    environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }
  ) -> Bool {
    guard let path = environment(socketVariable), path.hasPrefix("/") || path.hasPrefix("@")
    else { return false }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    var bytes = Array(path.utf8)
    let abstract = bytes.first == UInt8(ascii: "@")
    if abstract { bytes[0] = 0 }  // the abstract namespace starts with a NUL byte
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard bytes.count < capacity else { return false }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    // An abstract address's length counts only its bytes; a path's includes the NUL.
    let length = MemoryLayout.offset(of: \sockaddr_un.sun_path)! + bytes.count + (abstract ? 0 : 1)
    let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    let message = Array(state.utf8)
    let sent = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
        message.withUnsafeBytes { buffer in
          sendto(
            fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL), socketAddress,
            socklen_t(length))
        }
      }
    }
    return sent == message.count
  }
}
