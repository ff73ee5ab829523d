/// Makes one daemon own a state directory: an exclusive `flock` on `<directory>/daemon.lock`,
/// held for the daemon's life and released by the kernel if it crashes.
///
/// Take it before reading or writing any state, so a second daemon on the same directory
/// (say, with another `--socket`) is refused before it can overwrite what the first stores:
///
/// ```swift
/// let lock = try StateDirectoryLock.acquire(directory: stateDirectory, socketPath: socketPath)
/// // … restore, serve, store …
/// lock.release()  // after the last state is stored
/// ```
public final class StateDirectoryLock: Sendable {
  /// The lock file's name inside the state directory.
  public static let fileName = "daemon.lock"

  public let directory: String
  private let lock: InstanceLock

  private init(directory: String, lock: InstanceLock) {
    self.directory = directory
    self.lock = lock
  }

  /// Locks `directory` (which must exist) and records this process's pid and `socketPath`.
  /// Throws ``ServerError/stateDirectoryInUse(directory:pid:socketPath:)`` naming the owner
  /// when another process holds it.
  public static func acquire(directory: String, socketPath: String) throws -> StateDirectoryLock {
    let path = (directory.hasSuffix("/") ? directory : directory + "/") + fileName
    let lock = try InstanceLock.acquire(at: path, details: [socketPath]) { owner in
      ServerError.stateDirectoryInUse(
        directory: directory, pid: owner.pid, socketPath: owner.details.first)
    }
    return StateDirectoryLock(directory: directory, lock: lock)
  }

  /// Records where this daemon serves, once known for sure (e.g. a socket systemd passed).
  public func record(socketPath: String) {
    lock.record([socketPath])
  }

  /// Removes the lock file and releases the lock. Idempotent.
  public func release() {
    lock.release()
  }
}
