import Foundation
import Glibc
import StateServer
import SystemCalls
import Testing

/// systemd socket activation, exercised for real: the test binary re-runs itself as a
/// child with a listening socket on fd 3 and LISTEN_PID set to the child's own pid
/// (`sh` exports `$$` and then execs, which keeps the pid).
@Suite("Socket activation")
struct SocketActivationTests {
  static let childVariable = "STATED_TEST_ACTIVATION_CHILD"

  @Test func activatedSocketIsAdoptedAndNeverUnlinked() async throws {
    let directory = TemporaryDirectory()
    let socketPath = directory.path + "/act.sock"
    let listenFD = try listeningSocket(at: socketPath)
    defer { close(listenFD) }
    // Queued in the backlog now; the child must be able to accept it on fd 3.
    let client = try TestClient(path: socketPath)
    _ = client

    let marker = directory.path + "/child-ok"
    let log = directory.path + "/child.log"
    let status = try spawnChild(
      dupTo3: listenFD, log: log,
      environment: [Self.childVariable: "\(socketPath)|\(marker)"])
    let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    #expect(status == 0, "child output:\n\(output)")
    #expect(fileExists(marker))
    #expect(fileExists(socketPath))  // systemd owns it: not unlinked
    #expect(!fileExists(socketPath + ".lock"))
  }

  /// Runs only inside the child spawned above.
  @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil))
  func activationChild() throws {
    let parts = ProcessInfo.processInfo.environment[Self.childVariable]!.split(separator: "|")
    let (socketPath, marker) = (String(parts[0]), String(parts[1]))
    let listener = try ListeningSocket.open(path: "/nonexistent/configured.sock")
    var accepted: Int32 = -1
    for _ in 0..<1000 where accepted < 0 {
      accepted = accept(listener.fileDescriptor, nil, nil)
      if accepted < 0 { usleep(1000) }  // non-blocking descriptor: the child may poll
    }
    let good =
      listener.isSocketActivated && listener.fileDescriptor == 3 && listener.path == socketPath
      && getenv("LISTEN_PID") == nil && getenv("LISTEN_FDS") == nil && accepted >= 0
    #expect(good)
    if accepted >= 0 { close(accepted) }
    listener.close()
    if good { _ = FileManager.default.createFile(atPath: marker, contents: Data()) }
  }

  private func listeningSocket(at path: String) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8) }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    try #require(bound == 0 && listen(fd, 8) == 0)
    return fd
  }

  /// Spawns this test binary filtered to `activationChild`; returns its exit status.
  private func spawnChild(
    dupTo3 fd: Int32, log: String, environment extra: [String: String]
  ) throws -> Int32 {
    let executable = try #require(
      try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    let script =
      #"export LISTEN_PID=$$ LISTEN_FDS=1; exec "$0" --testing-library swift-testing "#
      + #"--filter activationChild"#
    let arguments = ["/bin/sh", "-c", script, executable]
    var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
    environment["LISTEN_PID"] = nil
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, fd, 3)  // dup2 clears close-on-exec
    // The child's own test report would read like the parent's; keep it in a file.
    posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    var pid: pid_t = 0
    let result = withCStrings(arguments) { argv in
      withCStrings(environment.map { "\($0.key)=\($0.value)" }) { envp in
        posix_spawn(&pid, "/bin/sh", &actions, nil, argv, envp)
      }
    }
    try #require(result == 0)
    var status: Int32 = 0
    _ = retryingOnInterrupt { waitpid(pid, &status, 0) }
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  }

  private func withCStrings<R>(
    _ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R
  ) -> R {
    var pointers = strings.map { strdup($0) }
    pointers.append(nil)
    defer { pointers.forEach { free($0) } }
    return body(pointers)
  }
}
