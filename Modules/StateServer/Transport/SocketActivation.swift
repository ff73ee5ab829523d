import Glibc

/// systemd socket activation (sd_listen_fds(3)): the service manager passes the
/// already-bound listening socket as fd 3 and describes it in the environment.
public enum SocketActivation {
  /// SD_LISTEN_FDS_START: the first passed descriptor.
  public static let firstDescriptor: Int32 = 3

  /// The inherited listening descriptor when LISTEN_PID names `processID` and
  /// LISTEN_FDS is at least 1; nil otherwise. Extra descriptors are ignored.
  public static func inheritedDescriptor(
    environment: [String: String], processID: Int32
  )
    -> Int32?
  {
    guard let pid = environment["LISTEN_PID"].flatMap({ Int32($0) }), pid == processID,
      let count = environment["LISTEN_FDS"].flatMap({ Int($0) }), count >= 1
    else { return nil }
    return firstDescriptor
  }

  /// Removes the variables so child processes do not think the socket is theirs.
  static func clearProcessEnvironment() {
    unsetenv("LISTEN_PID")
    unsetenv("LISTEN_FDS")
    unsetenv("LISTEN_FDNAMES")
  }
}
