import Glibc

/// Where the daemon keeps persistent state: `$XDG_STATE_HOME/stated`, else
/// `$HOME/.local/state/stated`, else the account's home from the password database.
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
}
