import Glibc
import SystemCalls

/// Where the daemon keeps persistent state: `$XDG_STATE_HOME/stated`, else
/// `$HOME/.local/state/stated`, else the account's home from the password database.
///
/// ```swift
/// let path = StateDirectory.defaultPath(environment: environment) ?? "/tmp/state"
/// let directory = try StateDirectory.prepare(path)  // absolute; else one line for the user
/// let lock = try StateDirectoryLock.acquire(directory: path, socketPath: socketPath)
/// ```
public enum StateDirectory {
  /// The default state directory, or nil when no home directory can be found.
  /// `accountHome` is consulted only when neither XDG_STATE_HOME nor HOME is usable.
  public static func defaultPath(
    environment: [String: String], accountHome: () -> String? = { StateDirectory.accountHome() }
  ) -> String? {
    if let stateHome = absolutePath(environment["XDG_STATE_HOME"]) {
      return joined(stateHome, "stated")
    }
    guard let home = absolutePath(environment["HOME"]) ?? absolutePath(accountHome()) else {
      return nil
    }
    return joined(joined(home, ".local/state"), "stated")
  }

  /// The home directory of the effective user according to getpwuid_r.
  public static func accountHome() -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    return buffer.withUnsafeMutableBufferPointer { storage -> String? in
      var entry = passwd()
      var result: UnsafeMutablePointer<passwd>?
      // entry's strings point into `storage`, so they are read inside this closure.
      let status = getpwuid_r(geteuid(), &entry, storage.baseAddress!, storage.count, &result)
      guard status == 0, result != nil, let home = entry.pw_dir else { return nil }
      return String(cString: home)
    }
  }

  /// Creates `path` and its missing parents (mode 0700) and checks that it is a directory
  /// this process can write; returns it as an absolute path (a relative one is taken from the
  /// current directory). Throws ``ServerError/unusableDirectory(path:reason:)`` with a
  /// one-line reason otherwise.
  @discardableResult
  public static func prepare(_ given: String) throws -> String {
    let path = try absolute(given)
    var prefix = ""
    for component in path.split(separator: "/") {
      prefix += "/" + component
      if mkdir(prefix, 0o700) == 0 || errno == EEXIST { continue }
      let code = errno
      let reason =
        switch code {
        case ENOTDIR: "\(parentOf(prefix)) is not a directory"
        case EACCES: "no permission to create \(prefix)"
        default: "cannot create \(prefix): \(errnoDescription(code))"
        }
      throw ServerError.unusableDirectory(path: path, reason: reason)
    }
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw ServerError.unusableDirectory(path: path, reason: errnoDescription(errno))
    }
    guard info.st_mode & S_IFMT == S_IFDIR else {
      throw ServerError.unusableDirectory(path: path, reason: "it is not a directory")
    }
    guard access(path, W_OK | X_OK) == 0 else {
      let reason = errno == EROFS ? "it is on a read-only file system" : "it is not writable"
      throw ServerError.unusableDirectory(path: path, reason: reason + " by uid \(geteuid())")
    }
    return path
  }

  private static func absolute(_ path: String) throws -> String {
    if path.hasPrefix("/") { return path }
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else {
      throw ServerError.unusableDirectory(
        path: path, reason: "it is relative, and the current directory is unknown")
    }
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    let current = String(decoding: bytes, as: UTF8.self)
    return (current.hasSuffix("/") ? current : current + "/") + path
  }

  private static func parentOf(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
    return String(path[..<slash])
  }
}
