import BlocCore
import Foundation
import Glibc
import StateServer
import Testing

/// A fresh private directory under /tmp with a short path (sun_path holds 107 bytes).
final class TemporaryDirectory {
  let path: String

  init() {
    var template = Array("/tmp/sst-XXXXXX".utf8CString)
    let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    precondition(created != nil, "mkdtemp failed: errno \(errno)")
    path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }

  var socketPath: String { path + "/s.sock" }
}

/// Polls `condition` until it holds or `timeout` passes; returns its last value.
func eventually(
  timeout: Duration = .seconds(10), _ condition: () throws -> Bool
) async rethrows -> Bool {
  let deadline = ContinuousClock.now + timeout
  while true {
    if try condition() { return true }
    if ContinuousClock.now >= deadline { return false }
    try? await Task.sleep(for: .milliseconds(1))
  }
}

/// File mode bits (permissions only) of `path`, or nil if it does not exist.
func permissions(of path: String) -> mode_t? {
  var info = stat()
  guard lstat(path, &info) == 0 else { return nil }
  return info.st_mode & 0o7777
}

func fileExists(_ path: String) -> Bool {
  access(path, F_OK) == 0
}

/// Echoes every frame back as a line and records what happened.
final class EchoDelegate: ConnectionDelegate {
  struct Record {
    var opened: [Connection] = []
    var closed: [UInt64] = []
    var oversized: [Int] = []
    var frames = 0
  }

  let record = Locked(Record())

  func connectionOpened(_ connection: Connection) {
    record.withLock { $0.opened.append(connection) }
  }

  func connection(_ connection: Connection, didReceive frame: [UInt8]) {
    record.withLock { $0.frames += 1 }
    connection.queueReply(frame + [10])
  }

  func connection(_ connection: Connection, didReceiveOversizedFrame byteCount: Int) {
    record.withLock { $0.oversized.append(byteCount) }
    connection.queueReply(Array(#"{"ok":false,"error":{"code":"frame_too_large"}}"#.utf8) + [10])
  }

  func connectionClosed(_ connection: Connection) {
    record.withLock { $0.closed.append(connection.id) }
  }

  var openedConnections: [Connection] { record.withLock { $0.opened } }
  var closedCount: Int { record.withLock { $0.closed.count } }
}

/// Starts a server on a temp socket, runs `body`, then shuts it down and waits.
func withServer(
  delegate: any ConnectionDelegate = EchoDelegate(),
  configure: (inout ServerConfiguration) -> Void = { _ in },
  drain: @escaping @Sendable () async -> Void = {},
  _ body: (Server, String) async throws -> Void
) async throws {
  let directory = TemporaryDirectory()
  var configuration = ServerConfiguration(socketPath: directory.socketPath, environment: [:])
  configuration.log = { _ in }
  configure(&configuration)
  let server = Server(configuration: configuration, delegate: delegate, drain: drain)
  try server.start()
  do {
    try await body(server, directory.socketPath)
  } catch {
    server.shutdown()
    _ = await stopped(server)
    throw error
  }
  server.shutdown()
  #expect(await stopped(server))
}

/// Waits for `server` to stop, but at most `timeout` (a test must fail, not hang).
/// Returns false on timeout, after forcing a shutdown so nothing leaks.
func stopped(_ server: Server, within timeout: Duration = .seconds(20)) async -> Bool {
  let finished = await withTaskGroup(of: Bool.self) { group in
    group.addTask {
      await server.waitUntilStopped()
      return true
    }
    group.addTask {
      try? await Task.sleep(for: timeout)
      return false
    }
    let first = await group.next()!
    if !first { server.shutdown() }  // lets the waiting child finish
    group.cancelAll()
    return first
  }
  return finished
}
