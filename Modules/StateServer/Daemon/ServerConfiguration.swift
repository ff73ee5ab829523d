import Foundation
import Glibc

/// Tunables of the transport. Defaults suit the daemon; tests override them.
public struct ServerConfiguration: Sendable {
  /// Where to bind (ignored when systemd passes a socket).
  public var socketPath: String
  /// Consulted for systemd socket activation (LISTEN_PID / LISTEN_FDS).
  public var environment: [String: String]
  /// The only peer uid that may talk to the daemon; others get `permission_denied`.
  public var allowedUID: UInt32
  /// Longest accepted request line, in bytes.
  public var maxFrameBytes: Int
  /// Backpressure threshold: above this many queued reply bytes, a connection's
  /// requests are not read until the queue drains below half of it.
  public var maxQueuedBytes: Int
  /// How long shutdown waits for the owner's drain hook.
  public var drainTimeout: Duration
  /// How long shutdown waits for queued bytes to be written before closing anyway.
  public var flushTimeout: Duration
  /// listen(2) backlog: connections the kernel queues until the loop accepts them. The
  /// system's maximum by default, so a burst of clients does not meet `EAGAIN`.
  public var backlog: Int32
  /// Where transport-level problems are reported (default: stderr).
  public var log: @Sendable (String) -> Void

  public init(
    socketPath: String,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    allowedUID: UInt32 = geteuid(),
    maxFrameBytes: Int = 1 << 20,
    maxQueuedBytes: Int = 1 << 20,
    drainTimeout: Duration = .seconds(10),
    flushTimeout: Duration = .seconds(5),
    backlog: Int32 = ServerConfiguration.systemMaximumBacklog,
    log: @escaping @Sendable (String) -> Void = ServerConfiguration.logToStandardError
  ) {
    self.socketPath = socketPath
    self.environment = environment
    self.allowedUID = allowedUID
    self.maxFrameBytes = maxFrameBytes
    self.maxQueuedBytes = maxQueuedBytes
    self.drainTimeout = drainTimeout
    self.flushTimeout = flushTimeout
    self.backlog = backlog
    self.log = log
  }

  /// The largest backlog `listen(2)` grants: `/proc/sys/net/core/somaxconn`, else `SOMAXCONN`.
  public static let systemMaximumBacklog: Int32 = {
    let fd = open("/proc/sys/net/core/somaxconn", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return SOMAXCONN }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: 32)
    let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard count > 0,
      let value = Int32(String(decoding: bytes[0..<count], as: UTF8.self).trimmingWhitespace()),
      value > 0
    else { return SOMAXCONN }
    return value
  }()

  /// Writes "<program>: <message>" to fd 2 (unbuffered, safe from any thread).
  public static func logToStandardError(_ message: String) {
    let line = Array("\(Logger.programName): \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  }
}
