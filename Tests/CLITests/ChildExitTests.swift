import Glibc
import ProcessSupport
import Testing

/// The tests' waits trust the kernel's word on a child's end (ChildExit): it must say how the
/// child ended, exactly, and leave it to be reaped.
@Suite struct ChildExitTests {
  func ended(_ script: String) throws -> (end: ChildExit.End?, reaped: Int32) {
    let child = try SpawnedProcess("/bin/sh", ["-c", script])
    ChildExit.wait(for: child.pid)
    return (ChildExit.end(of: child.pid), child.wait())
  }

  @Test func anExitIsItsStatus() throws {
    let (end, reaped) = try ended("exit 3")
    #expect(end == ChildExit.End(status: 3, bySignal: false))
    #expect(reaped == 3)  // still there to be reaped
  }

  @Test func aKillIsItsSignal() throws {
    let (end, reaped) = try ended("kill -KILL $$")
    #expect(end == ChildExit.End(status: SIGKILL, bySignal: true))
    #expect(reaped == 128 + SIGKILL)
  }
}
