import Foundation
import Glibc

/// Whether a child has ended, asked of the kernel without reaping it.
///
/// Foundation's `Process` learns of a child's end only when every copy of a private socket it
/// gave the child is closed, and a process spawned beside it in a parallel test run can inherit
/// one and keep it open for as long as it lives: `isRunning` can stay true for a child that is
/// long gone. `waitid` with `WNOWAIT` sees the end at once and leaves the reaping to Foundation.
enum ChildExit {
  /// How a child ended: its exit status, or the signal that ended it (as
  /// `Process.terminationStatus` gives either).
  struct End: Equatable {
    var status: Int32
    var bySignal: Bool
  }

  /// How the child ended; nil while it runs or once Foundation has reaped it.
  static func end(of pid: pid_t) -> End? {
    var info = siginfo_t()
    let result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
    guard result == 0, info._sifields._sigchld.si_pid == pid else { return nil }
    return End(status: info._sifields._sigchld.si_status, bySignal: info.si_code != CLD_EXITED)
  }

  /// Blocks until the child has ended (without reaping it); returns at once if it is reaped.
  static func wait(for pid: pid_t) {
    var info = siginfo_t()
    while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1, errno == EINTR {}
  }

  /// Whether `process` has ended: Foundation has seen it, or the kernel says so.
  static func hasEnded(_ process: Process) -> Bool {
    !process.isRunning || end(of: process.processIdentifier) != nil
  }

  /// How `process` ended, once it has: from Foundation if it has seen the end (then its
  /// `terminationStatus` and `terminationReason` may be read), else from the kernel.
  static func end(_ process: Process) -> End? {
    if !process.isRunning {
      return End(
        status: process.terminationStatus, bySignal: process.terminationReason == .uncaughtSignal)
    }
    return end(of: process.processIdentifier)
  }
}
