import Foundation
import Glibc

/// Whether a child has ended, asked of the kernel without reaping it.
///
/// Foundation's `Process` learns of a child's end only when every copy of a private socket it
/// gave the child is closed, and a process spawned beside it in a parallel test run can inherit
/// one and keep it open for as long as it lives: `isRunning` can stay true for a child that is
/// long gone. `waitid` with `WNOWAIT` sees the end at once and leaves the reaping to Foundation.
public enum ChildExit {
  /// How a child ended: its exit status, or the signal that ended it (as
  /// `Process.terminationStatus` gives either).
  public struct End: Equatable, Sendable {
    public var status: Int32
    public var bySignal: Bool

    public init(status: Int32, bySignal: Bool) {
      self.status = status
      self.bySignal = bySignal
    }
  }

  /// How the child ended; nil while it runs or once Foundation has reaped it.
  public static func end(of pid: pid_t) -> End? {
    var info = siginfo_t()
    let result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
    guard result == 0, info._sifields._sigchld.si_pid == pid else { return nil }
    return End(status: info._sifields._sigchld.si_status, bySignal: info.si_code != CLD_EXITED)
  }

  /// Blocks until the child has ended (without reaping it); returns at once if it is reaped.
  public static func wait(for pid: pid_t) {
    var info = siginfo_t()
    while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1, errno == EINTR {}
  }

  /// Whether `process` has ended: Foundation has seen it, or the kernel says so.
  public static func hasEnded(_ process: Process) -> Bool {
    !process.isRunning || end(of: process.processIdentifier) != nil
  }

  /// How `process` ended, once it has: from Foundation if it has seen the end (then its
  /// `terminationStatus` and `terminationReason` may be read), else from the kernel.
  public static func end(_ process: Process) -> End? {
    if !process.isRunning {
      return End(
        status: process.terminationStatus, bySignal: process.terminationReason == .uncaughtSignal)
    }
    return end(of: process.processIdentifier)
  }

  /// Waits for `process` to end without blocking a concurrency thread, asking every `poll`;
  /// how it ended, or nil if it had not ended after `timeout` (then it is SIGKILLed and has
  /// ended when this returns). Read the result, not `process`'s termination properties:
  /// Foundation may not have seen the end yet.
  public static func waitForEnd(
    of process: Process, timeout: Duration, poll: Duration = .milliseconds(2)
  ) async throws -> End? {
    let deadline = ContinuousClock.now + timeout
    while true {
      if let end = end(process) { return end }
      if ContinuousClock.now >= deadline {
        kill(process.processIdentifier, SIGKILL)
        wait(for: process.processIdentifier)
        return nil
      }
      try await Task.sleep(for: poll)
    }
  }
}
