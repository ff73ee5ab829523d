/// Where `statectl` looks for the daemon, and why there.
///
/// The default follows the daemon's own rule (`SocketLocation.default` in StateServer),
/// reimplemented here so that `statectl` needs neither StateServer nor Foundation:
/// `$XDG_RUNTIME_DIR/stated/stated.sock` when XDG_RUNTIME_DIR is an absolute path,
/// otherwise `/tmp/stated-<uid>/stated.sock`.
///
/// ```swift
/// SocketPath.resolve(option: nil, environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], uid: 1000)
/// // SocketPath(path: "/run/user/1000/stated/stated.sock", source: .runtimeDirectory)
/// ```
public struct SocketPath: Equatable, Sendable {
  /// Which rule chose the path, for error messages.
  public enum Source: Equatable, Sendable {
    /// `--socket PATH`.
    case option
    /// The `STATED_SOCKET` environment variable.
    case environment
    /// `$XDG_RUNTIME_DIR/stated/stated.sock`.
    case runtimeDirectory
    /// `/tmp/stated-<uid>/stated.sock`.
    case temporaryFallback
  }

  /// The environment variable that overrides the default socket path.
  public static let environmentVariable = "STATED_SOCKET"

  public var path: String
  public var source: Source

  public init(path: String, source: Source) {
    self.path = path
    self.source = source
  }

  /// `--socket` wins, then a non-empty `STATED_SOCKET`, then the daemon's default.
  public static func resolve(
    option: String?, environment: (String) -> String?, uid: UInt32
  ) -> SocketPath {
    if let option { return SocketPath(path: option, source: .option) }
    if let variable = environment(environmentVariable), !variable.isEmpty {
      return SocketPath(path: variable, source: .environment)
    }
    return daemonDefault(environment: environment, uid: uid)
  }

  /// The daemon's default location for user `uid`.
  public static func daemonDefault(environment: (String) -> String?, uid: UInt32) -> SocketPath {
    // The XDG base-directory spec says relative (or empty) values must be ignored.
    if let runtime = environment("XDG_RUNTIME_DIR"), runtime.hasPrefix("/") {
      let directory = joined(runtime, "stated")
      return SocketPath(path: joined(directory, "stated.sock"), source: .runtimeDirectory)
    }
    return SocketPath(path: "/tmp/stated-\(uid)/stated.sock", source: .temporaryFallback)
  }

  /// How the path was chosen, e.g. "from --socket".
  public var origin: String {
    switch source {
    case .option: "from --socket"
    case .environment: "from $\(Self.environmentVariable)"
    case .runtimeDirectory: "the default under $XDG_RUNTIME_DIR"
    case .temporaryFallback: "the default when XDG_RUNTIME_DIR is not set"
    }
  }

  private static func joined(_ base: String, _ component: String) -> String {
    base.hasSuffix("/") ? base + component : base + "/" + component
  }
}
