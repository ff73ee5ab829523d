import Glibc
import SystemCalls

/// Runs one command typed at the shell as its own `statectl` process (this very program, via
/// /proc/self/exe), on the shell's terminal. A command is then exactly what it is on the command
/// line, and Ctrl-C ends the command — a `watch`, or a `send` waiting for a daemon that does not
/// answer — and not the shell, which only waits for it.
enum CommandProcess {
  /// Runs `statectl ARGUMENTS…` and returns its exit status (128 + N when signal N ended it).
  static func run(_ arguments: [String]) -> Int32 {
    let argv = (["statectl"] + arguments).map(cString) + [nil]
    let envp = processEnvironment().map(cString) + [nil]
    defer {
      argv.forEach { $0?.deallocate() }
      envp.forEach { $0?.deallocate() }
    }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, "/proc/self/exe", nil, nil, argv, envp)
    guard spawned == 0 else {
      writeAll(2, "statectl: cannot start the command: \(errnoDescription(spawned))\n")
      return 127
    }
    var status: Int32 = 0
    _ = retryingOnInterrupt { waitpid(pid, &status, 0) }
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
  }

  /// A C copy of `string`, allocated and freed by Swift: the static libc's `strdup` bypasses
  /// ThreadSanitizer's allocator, whose `free` then aborts the process.
  static func cString(_ string: String) -> UnsafeMutablePointer<CChar>? {
    let bytes = string.utf8CString
    let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
    bytes.withUnsafeBufferPointer { copy.initialize(from: $0.baseAddress!, count: $0.count) }
    return copy
  }

  /// The environment this process started with (NUL-separated in /proc/self/environ), which a
  /// command inherits: STATED_SOCKET, XDG_RUNTIME_DIR and the like.
  static func processEnvironment() -> [String] {
    guard let bytes = try? TextFile.read("/proc/self/environ") else { return [] }
    return bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
  }

  /// Keeps the shell alive through Ctrl-C and Ctrl-\ while a command runs on the terminal (the
  /// terminal signals its whole process group). A handler, unlike SIG_IGN, is not inherited:
  /// the command gets the default actions back when it starts.
  static func shieldShell() {
    signal(SIGINT) { _ in }
    signal(SIGQUIT) { _ in }
  }
}
