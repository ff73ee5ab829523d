import Foundation
import Glibc

/// Runs a ``ReplyScript`` against a real daemon and writes it back with what was received.
struct ReplyScriptRun {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  let daemon: DaemonProcess
  /// The daemon's private directory; it varies, so replies show it as `<dir>`.
  let directory: String
  private var clients: [Int: TestClient] = [:]
  private var transcript = ""

  init(daemon: DaemonProcess, directory: String) {
    self.daemon = daemon
    self.directory = directory
  }

  /// The script with every read filled in. Stops before `!root-only` unless `asRoot`.
  mutating func replay(_ steps: [ReplyScript.Step], asRoot: Bool) async throws -> String {
    for step in steps {
      switch step {
      case .text(let line):
        append(line)
      case .send(let connection, let bytes, let line):
        try client(connection).write(bytes + [10])
        append(line)
      case .read(let connection):
        // The timeout only ends a run whose script waits for a line that never comes.
        let line = try await client(connection).readLine(timeout: .seconds(30))
        append("\(connection)< " + (line.map(normalized) ?? "(closed)"))
      case .rootOnly:
        guard asRoot else { return transcript }
        append("!root-only")
      case .fullDisk:
        try await fillStateDirectory()
        append("!full-disk")
      case .freeDisk:
        unlink(daemon.stateDirectory + "/filler")
        append("!free-disk")
      case .nobody:
        append("!nobody")
        for line in try await linesForAnotherUser() { append("!nobody< " + normalized(line)) }
      }
    }
    return transcript
  }

  private mutating func append(_ line: String) {
    transcript += line + "\n"
  }

  private mutating func client(_ connection: Int) throws -> TestClient {
    if let client = clients[connection] { return client }
    let client = try daemon.client()
    clients[connection] = client
    return client
  }

  /// The state directory as `<dir>`, and times (`"time":"2026-12-01T19:20:01.123Z"`, when a
  /// change was made) as `"time":"<time>"`: they vary from run to run.
  private func normalized(_ line: String) -> String {
    line.replacingOccurrences(of: directory, with: "<dir>")
      .replacing(#/"time":"[0-9T:.Z-]+"/#, with: #""time":"<time>""#)
  }

  /// Fills the tmpfs, then spends the slack of the journal's last page on increments (a
  /// connection of its own, not recorded) until one is refused: after this every change is.
  private func fillStateDirectory() async throws {
    StorageFaultTests.fill(daemon.stateDirectory + "/filler")
    let client = try daemon.client()
    for _ in 0..<1000 {
      let reply = try await client.call(StorageFaultTests.increment)
      if reply["ok"] != true { return }
    }
    throw Failure(description: "the full state directory refused no change")
  }

  /// What a client running as uid 65534 receives (the socket opened up for it, as an operator
  /// might do by mistake: the daemon itself must refuse the foreign uid).
  private func linesForAnotherUser() async throws -> [String] {
    let socketDirectory = URL(fileURLWithPath: daemon.socketPath).deletingLastPathComponent().path
    chmod(socketDirectory, 0o755)
    chmod(daemon.socketPath, 0o666)
    defer {
      chmod(daemon.socketPath, 0o600)
      chmod(socketDirectory, 0o700)
    }
    let relay = """
      import socket, sys
      sock = socket.socket(socket.AF_UNIX); sock.connect(sys.argv[1])
      while True:
          chunk = sock.recv(65536)
          if not chunk: break
          sys.stdout.buffer.write(chunk)
      """
    let (status, output) = try await runProcess(
      "/usr/bin/setpriv",
      [
        "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", relay,
        daemon.socketPath,
      ], environment: ["PATH": "/usr/bin:/bin"], directory: URL(fileURLWithPath: "/"))
    guard status == 0 else { throw Failure(description: "client as uid 65534: \(output)") }
    return output.split(separator: "\n").map(String.init)
  }
}
