import Glibc  // Linux only, like the daemon
import SystemCalls

/// Blocking system-call wrappers for a Unix stream socket, retrying on EINTR.
enum UnixSocket {
  /// Opens a socket and connects it to `path`.
  static func connect(path: String, timeout: Duration?) throws(ConnectionError) -> Int32 {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let pathBytes = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard !pathBytes.isEmpty, pathBytes.count < capacity, !pathBytes.contains(0) else {
      throw ConnectionError(
        .invalidPath,
        "cannot connect to \(path): not a valid socket path (at most \(capacity - 1) bytes)")
    }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: pathBytes)
      raw[pathBytes.count] = 0
    }
    let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + pathBytes.count + 1)

    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw ConnectionError.system("socket", errno: errno) }
    if let timeout { setTimeout(fd, timeout) }

    var result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
    }
    if result != 0 && errno == EINTR {
      // The connection continues in the background; wait for it to settle.
      result = finishInterruptedConnect(fd)
    }
    if result != 0 {
      let code = errno
      Glibc.close(fd)
      throw ConnectionError.connecting(to: path, errno: code)
    }
    return fd
  }

  /// After connect(2) failed with EINTR: waits for writability, then reads
  /// the outcome from SO_ERROR. Returns 0 or -1 with `errno` set.
  private static func finishInterruptedConnect(_ fd: Int32) -> Int32 {
    var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
    guard retryingOnInterrupt({ poll(&poller, 1, -1) }) >= 0 else { return -1 }
    var failure: Int32 = 0
    var size = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &size) == 0 else { return -1 }
    if failure != 0 {
      errno = failure
      return -1
    }
    return 0
  }

  /// Sets SO_RCVTIMEO and SO_SNDTIMEO.
  static func setTimeout(_ fd: Int32, _ timeout: Duration) {
    let (seconds, attoseconds) = timeout.components
    var value = timeval(
      tv_sec: Int(max(0, seconds)), tv_usec: Int(max(0, attoseconds) / 1_000_000_000_000))
    if value.tv_sec == 0 && value.tv_usec == 0 { value.tv_usec = 1 }  // 0 would mean "forever"
    let size = socklen_t(MemoryLayout<timeval>.size)
    _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, size)
    _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, size)
  }

  /// Writes all of `bytes`, handling partial writes; never raises SIGPIPE.
  static func sendAll(_ fd: Int32, _ bytes: [UInt8]) throws(ConnectionError) {
    let sent = bytes.withUnsafeBytes { raw in
      writeAll(raw) { rest, _ in send(fd, rest.baseAddress, rest.count, Int32(MSG_NOSIGNAL)) }
    }
    guard sent else { throw ConnectionError.system("send", errno: errno) }
  }

  /// Reads at most `buffer.count` bytes; 0 means end of stream.
  static func receive(
    _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer
  )
    throws(ConnectionError) -> Int
  {
    let count = retryingOnInterrupt { recv(fd, buffer.baseAddress, buffer.count, 0) }
    guard count >= 0 else { throw ConnectionError.system("recv", errno: errno) }
    return count
  }
}
