import Glibc
import SystemCalls

/// A raw Glibc client socket for tests, with deadline-bounded reads.
final class TestClient {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// The socket; -1 only while a failed init unwinds (deinit then closes nothing).
  private(set) var fd: Int32
  /// Bytes received but not yet returned as lines.
  private var pending: [UInt8] = []
  /// `pending[..<scanned]` holds no "\n" (long lines are not rescanned per chunk).
  private var scanned = 0
  private(set) var sawEndOfFile = false

  init(path: String) throws {
    fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8) }
    let status = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard status == 0 else {
      let code = errno
      Glibc.close(fd)
      // A class whose init throws after initializing every property still runs deinit:
      // closing again there would close whatever descriptor reused the number meanwhile.
      fd = -1
      throw Failure(description: "connect \(path): errno \(code)")
    }
  }

  deinit {
    if fd >= 0 { Glibc.close(fd) }
  }

  /// Writes everything (blocking until the kernel takes it).
  func write(_ bytes: [UInt8]) throws {
    let sent = bytes.withUnsafeBytes { raw in
      writeAll(raw) { rest, _ in send(fd, rest.baseAddress, rest.count, Int32(MSG_NOSIGNAL)) }
    }
    guard sent else { throw Failure(description: "send: errno \(errno)") }
  }

  func write(_ text: String) throws {
    try write(Array(text.utf8))
  }

  /// One non-blocking send attempt; returns bytes written, 0 when the socket is full.
  func tryWrite(_ bytes: UnsafeRawBufferPointer) throws -> Int {
    let count = send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
    if count >= 0 { return count }
    if errno == EAGAIN || errno == EINTR { return 0 }
    throw Failure(description: "send: errno \(errno)")
  }

  /// Stops sending (the server sees end of input) while still reading.
  func shutdownWrite() {
    shutdown(fd, Int32(SHUT_WR))
  }

  /// Waits up to `timeout` for readability/writability; returns the revents (0 on timeout).
  /// Polls without blocking and sleeps between tries, so the test never occupies a
  /// thread of the (small) cooperative pool that the server's tasks also need.
  func poll(_ events: Int16, timeout: Duration) async -> Int16 {
    let deadline = ContinuousClock.now + timeout
    var pause = Duration.microseconds(50)
    while true {
      var entry = pollfd(fd: fd, events: events, revents: 0)
      if Glibc.poll(&entry, 1, 0) > 0 { return entry.revents }
      if ContinuousClock.now >= deadline { return 0 }
      try? await Task.sleep(for: pause)
      pause = min(pause * 2, .milliseconds(2))
    }
  }

  /// Reads whatever is available within `timeout` into the pending buffer.
  /// Returns false when nothing came (timeout) or the peer closed.
  @discardableResult
  func fill(timeout: Duration) async throws -> Bool {
    guard !sawEndOfFile, await poll(Int16(POLLIN), timeout: timeout) != 0 else { return false }
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    if count > 0 {
      pending.append(contentsOf: chunk[0..<count])
      return true
    }
    if count == 0 || errno == ECONNRESET {
      // ECONNRESET: the server closed while our unread request bytes were in flight.
      sawEndOfFile = true
      return false
    }
    if errno == EAGAIN || errno == EINTR { return true }
    throw Failure(description: "recv: errno \(errno)")
  }

  /// The next line without "\n", or nil on EOF. Throws if `timeout` passes first. (Timeouts
  /// here only end a test that would hang; they are generous because under ThreadSanitizer
  /// the whole suite shares two busy cores.)
  func readLine(timeout: Duration = .seconds(60)) async throws -> String? {
    let deadline = ContinuousClock.now + timeout
    while true {
      if let newline = pending[scanned...].firstIndex(of: 10) {
        let line = String(decoding: pending[..<newline], as: UTF8.self)
        pending.removeSubrange(...newline)
        scanned = 0
        return line
      }
      scanned = pending.count
      if sawEndOfFile { return nil }
      let remaining = ContinuousClock.now.duration(to: deadline)
      guard remaining > .zero else { throw Failure(description: "timed out waiting for a line") }
      try await fill(timeout: remaining)
    }
  }

  /// Reads `count` lines; throws on EOF or timeout.
  func readLines(_ count: Int, timeout: Duration = .seconds(60)) async throws -> [String] {
    let deadline = ContinuousClock.now + timeout
    var lines: [String] = []
    lines.reserveCapacity(count)
    while lines.count < count {
      guard let line = try await readLine(timeout: ContinuousClock.now.duration(to: deadline))
      else {
        throw Failure(description: "EOF after \(lines.count) of \(count) lines")
      }
      lines.append(line)
    }
    return lines
  }

  /// Reads lines until the server closes; throws if it does not close in time.
  func readToEnd(timeout: Duration = .seconds(60)) async throws -> [String] {
    let deadline = ContinuousClock.now + timeout
    var lines: [String] = []
    while let line = try await readLine(timeout: ContinuousClock.now.duration(to: deadline)) {
      lines.append(line)
    }
    return lines
  }

  /// Bytes received but not yet consumed as lines.
  var pendingByteCount: Int { pending.count }

  /// Discards pending bytes, counting the complete lines in them (for bulk tests).
  func consumeLines(_ visit: (ArraySlice<UInt8>) -> Void) {
    var start = pending.startIndex
    while let newline = pending[start...].firstIndex(of: 10) {
      visit(pending[start..<newline])
      start = newline + 1
    }
    pending.removeSubrange(..<start)
    scanned = 0
  }
}
