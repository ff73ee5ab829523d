import Glibc

/// The process on the other end of a Unix socket, as the kernel saw it at connect().
public struct PeerCredentials: Sendable, Equatable {
  public let pid: Int32
  public let uid: UInt32
  public let gid: UInt32

  public init(pid: Int32, uid: UInt32, gid: UInt32) {
    self.pid = pid
    self.uid = uid
    self.gid = gid
  }

  /// Reads SO_PEERCRED, or nil if the kernel refuses (not a connected Unix socket).
  public static func of(socket fd: Int32) -> PeerCredentials? {
    // struct ucred is {pid_t, uid_t, gid_t}: three 32-bit fields. Glibc only exports it
    // under _GNU_SOURCE, which Swift's module does not set, so read it as raw bytes.
    var raw: (UInt32, UInt32, UInt32) = (0, 0, 0)
    var length = socklen_t(12)
    let status = withUnsafeMutableBytes(of: &raw) { bytes in
      getsockopt(fd, SOL_SOCKET, SO_PEERCRED, bytes.baseAddress, &length)
    }
    guard status == 0, length == 12 else { return nil }
    return withUnsafeBytes(of: &raw) { bytes in
      PeerCredentials(
        pid: bytes.load(fromByteOffset: 0, as: Int32.self),
        uid: bytes.load(fromByteOffset: 4, as: UInt32.self),
        gid: bytes.load(fromByteOffset: 8, as: UInt32.self))
    }
  }
}
