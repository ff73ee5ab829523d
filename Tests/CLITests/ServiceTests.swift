import Foundation
import Glibc
import SystemCalls
import Testing
import Wire

/// stated under systemd's rules: started by socket activation (`systemd-socket-activate`, as
/// `stated.socket` does), it serves the passed socket and sends READY=1 on $NOTIFY_SOCKET
/// (`Type=notify`); the unit files pass `systemd-analyze verify`.
@Suite(.serialized) struct ServiceTests {
  static let missingSystemd =
    "systemd-socket-activate is not installed: apt-get install systemd (Scripts/test --install)"

  @Test func socketActivationAndReadiness() async throws {
    try #require(isInstalled("systemd-socket-activate"), "\(Self.missingSystemd)")
    let directory = try TemporaryTree()
    let socket = directory.path + "/stated.sock"
    let notify = try NotifySocket(path: directory.path + "/notify.sock")
    defer { notify.close() }

    // Like stated.socket + stated.service: systemd listens, and starts the daemon with the
    // listening socket (LISTEN_FDS) when the first client connects.
    // Not through Foundation's Process: systemd-socket-activate closes the descriptors it
    // inherits, which Process takes for the child's exit and then waits for it, blocking.
    let activator = try SpawnedProcess(
      "/usr/bin/env",
      [
        "systemd-socket-activate", "--listen=\(socket)", "--setenv=NOTIFY_SOCKET=\(notify.path)",
        Binaries.stated, "--state-dir", directory.path + "/state",
      ])
    defer { activator.kill() }
    let deadline = ContinuousClock.now + .seconds(30)
    while !FileManager.default.fileExists(atPath: socket) && ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(5))
    }

    let sent = try await statectl(["send", "counter", "increment", "--socket", socket])
    #expect(sent.status == 0, "\(sent.standardError)")
    #expect(try sent.jsonLines.first?["state"] == ["count": 1])
    // systemd-socket-activate execs the daemon: the pid stays the same.
    let message = try #require(notify.receive(), "no READY=1 on NOTIFY_SOCKET")
    #expect(message.split(separator: "\n").contains("READY=1"))
    #expect(message.split(separator: "\n").contains("MAINPID=\(activator.pid)"))
    let again = try await statectl(["get", "counter", "--socket", socket])
    #expect(try again.jsonLines.first?["state"] == ["count": 1])

    Glibc.kill(activator.pid, SIGTERM)
    #expect(activator.wait() == 0)
  }

  @Test(.enabled(if: isInstalled("systemd-analyze")))
  func unitFilesVerify() async throws {
    let directory = try TemporaryTree()
    let units = packageRoot + "/Distribution/systemd"
    let service = try String(contentsOfFile: units + "/stated.service.in", encoding: .utf8)
      .replacingOccurrences(of: "@BINDIR@", with: Binaries.directory)
    try service.write(toFile: directory.path + "/stated.service", atomically: true, encoding: .utf8)
    try FileManager.default.copyItem(
      atPath: units + "/stated.socket", toPath: directory.path + "/stated.socket")
    let result = try await runTool(
      "/usr/bin/env",
      [
        "systemd-analyze", "verify", "--man=no", directory.path + "/stated.socket",
        directory.path + "/stated.service",
      ])
    #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    #expect(result.standardError == "", "\(result.standardError)")
  }
}

/// A temporary directory removed with everything in it.
final class TemporaryTree {
  let path: String

  init() throws {
    path = FileManager.default.temporaryDirectory.path + "/cli-unit." + UUID().uuidString.prefix(8)
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A datagram socket standing in for systemd's notification socket.
struct NotifySocket {
  let path: String
  let fd: Int32

  init(path: String) throws {
    self.path = path
    fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0, bind(fd, toPath: path) == 0 else {
      throw ProcessFailure(description: "cannot bind \(path)")
    }
    // A bound on a hang, not a timing assertion: READY=1 has been sent before we read.
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  }

  /// The next datagram as text; nil when none came.
  func receive() -> String? {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
  }

  func close() { Glibc.close(fd) }
}

/// A child process started with posix_spawn(3), its output discarded.
final class SpawnedProcess {
  let pid: pid_t
  private var status: Int32?

  init(_ executable: String, _ arguments: [String]) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid = pid_t()
    let result = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    guard result == 0 else {
      throw ProcessFailure(description: "cannot start \(executable): \(result)")
    }
    self.pid = pid
  }

  /// Waits for the exit; returns the exit status (128 + signal when killed).
  @discardableResult
  func wait() -> Int32 {
    if let status { return status }
    var raw: Int32 = 0
    _ = retryingOnInterrupt { waitpid(pid, &raw, 0) }
    let exited = raw & 0x7f == 0
    status = exited ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
    return status!
  }

  func kill() {
    guard status == nil else { return }
    Glibc.kill(pid, SIGKILL)
    wait()
  }
}
