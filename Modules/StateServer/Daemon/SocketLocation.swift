/// Where the daemon's socket lives by default.
///
/// - `$XDG_RUNTIME_DIR/stated/stated.sock` when XDG_RUNTIME_DIR is set to an absolute path
///   (the per-user runtime directory that systemd-logind creates, mode 0700).
/// - Otherwise `/tmp/stated-<uid>/stated.sock`. /tmp is shared by every user, so
///   `prepareDirectory` refuses a directory there that another uid owns or that
///   group/world can access: someone else could otherwise intercept the socket.
///
/// Computing the location is pure (environment and uid are parameters) so tests
/// can pass their own.
public struct SocketLocation: Sendable, Equatable {
  /// Which rule produced the location.
  public enum Kind: Sendable, Equatable {
    case runtimeDirectory
    case temporaryFallback
  }

  /// Full path of the socket file.
  public let path: String
  /// Directory holding the socket (and its lock file); private to the owner.
  public let directory: String
  public let kind: Kind

  /// File name of the socket inside its directory.
  public static let socketFileName = "stated.sock"

  public init(path: String, directory: String, kind: Kind) {
    self.path = path
    self.directory = directory
    self.kind = kind
  }

  /// The default location for the user `uid` given an environment.
  public static func `default`(environment: [String: String], uid: UInt32) -> SocketLocation {
    if let runtime = absolutePath(environment["XDG_RUNTIME_DIR"]) {
      let directory = joined(runtime, "stated")
      return SocketLocation(
        path: joined(directory, socketFileName), directory: directory, kind: .runtimeDirectory)
    }
    let directory = "/tmp/stated-\(uid)"
    return SocketLocation(
      path: joined(directory, socketFileName), directory: directory, kind: .temporaryFallback)
  }

  /// Creates the directory with mode 0700 if needed and checks that only `ownerUID`
  /// can use it. Throws `ServerError.unsafeDirectory` with the reason otherwise.
  public func prepareDirectory(ownerUID: UInt32) throws {
    try PrivateDirectory.prepare(directory, ownerUID: ownerUID)
  }
}

/// The XDG base-directory spec says relative (or empty) values must be ignored.
func absolutePath(_ value: String?) -> String? {
  guard let value, value.hasPrefix("/") else { return nil }
  return value
}

/// Joins path components with exactly one "/" between them.
func joined(_ base: String, _ component: String) -> String {
  base.hasSuffix("/") ? base + component : base + "/" + component
}
