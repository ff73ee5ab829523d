import Glibc

/// Creates and vets directories that must be private to one user (mode 0700).
enum PrivateDirectory {
  /// Makes `path` (not its parents) with mode 0700 unless it exists, then checks it:
  /// a real directory, not a symlink, owned by `ownerUID`, without group/world access.
  static func prepare(_ path: String, ownerUID: UInt32) throws {
    if mkdir(path, 0o700) == 0 {
      // mkdir's mode passes through the umask; set it exactly.
      guard chmod(path, 0o700) == 0 else {
        throw ServerError.systemCall("chmod", path: path, errno: errno)
      }
    } else if errno != EEXIST {
      throw ServerError.systemCall("mkdir", path: path, errno: errno)
    }
    try check(path, ownerUID: ownerUID)
  }

  /// Throws `ServerError.unsafeDirectory` unless `path` is safe to hold our socket.
  static func check(_ path: String, ownerUID: UInt32) throws {
    var info = stat()
    // lstat: a symlink planted by someone else must not redirect us.
    guard lstat(path, &info) == 0 else {
      throw ServerError.systemCall("lstat", path: path, errno: errno)
    }
    let type = info.st_mode & S_IFMT
    if type == S_IFLNK {
      throw ServerError.unsafeDirectory(
        path: path, reason: "it is a symbolic link; remove it and retry")
    }
    guard type == S_IFDIR else {
      throw ServerError.unsafeDirectory(path: path, reason: "it exists and is not a directory")
    }
    guard info.st_uid == ownerUID else {
      throw ServerError.unsafeDirectory(
        path: path,
        reason: "it is owned by uid \(info.st_uid), not by uid \(ownerUID); another user may "
          + "be trying to intercept the socket — remove it or set XDG_RUNTIME_DIR")
    }
    let access = info.st_mode & 0o777
    guard access & 0o077 == 0 else {
      throw ServerError.unsafeDirectory(
        path: path,
        reason: "its mode is \(octal(access)), which lets group or others in; "
          + "run `chmod 700 \(path)`")
    }
  }

  private static func octal(_ mode: mode_t) -> String {
    let digits = String(mode, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
