import Glibc

/// Builds `sockaddr_un` values for filesystem socket paths.
enum UnixSocketAddress {
  /// Longest path that fits in `sun_path` with its terminating NUL (107 on Linux).
  static let maxPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

  /// Throws `ServerError.socketPathTooLong` when `path` cannot be bound.
  static func validate(_ path: String) throws {
    if path.utf8.count > maxPathBytes {
      throw ServerError.socketPathTooLong(path: path, maxBytes: maxPathBytes)
    }
  }

  /// Calls `body` with a `sockaddr` for `path` and its length.
  static func with<Result>(
    _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
  ) throws -> Result {
    try validate(path)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { pathBytes in
      pathBytes.copyBytes(from: path.utf8)  // the rest stays zero, so it is NUL-terminated
    }
    let length = socklen_t(MemoryLayout<sockaddr_un>.size)
    return withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
    }
  }

  /// The filesystem path a socket is bound to, or nil for unnamed/abstract sockets.
  static func boundPath(of fd: Int32) -> String? {
    var address = sockaddr_un()
    var length = socklen_t(MemoryLayout<sockaddr_un>.size)
    let status = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard status == 0, address.sun_family == sa_family_t(AF_UNIX) else { return nil }
    let path = withUnsafeBytes(of: &address.sun_path) { bytes in
      String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
    return path.hasPrefix("/") ? path : nil
  }
}
