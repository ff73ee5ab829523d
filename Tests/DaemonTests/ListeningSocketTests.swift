import Foundation
import Glibc
import StateServer
import Testing

@Suite("ListeningSocket")
struct ListenerTests {
  @Test func socketIsMode0600AndLockRecordsPID() throws {
    let temporary = TemporaryDirectory()
    let oldMask = umask(0)  // fchmod before bind, not the umask, must make it private
    defer { umask(oldMask) }
    let listener = try ListeningSocket.open(path: temporary.socketPath, environment: [:])
    defer { listener.close() }
    #expect(permissions(of: temporary.socketPath) == 0o600)
    let lock = try String(contentsOfFile: temporary.socketPath + ".lock", encoding: .utf8)
    #expect(lock == "\(getpid())\n")
    #expect(!listener.isSocketActivated)
  }

  @Test func secondListenerIsRefusedClearly() throws {
    let temporary = TemporaryDirectory()
    let first = try ListeningSocket.open(path: temporary.socketPath, environment: [:])
    defer { first.close() }
    let error = #expect(throws: ServerError.self) {
      try ListeningSocket.open(path: temporary.socketPath, environment: [:])
    }
    #expect(
      error?.description
        == "another daemon is already running on \(temporary.socketPath) (pid \(getpid()))")
    #expect(fileExists(temporary.socketPath))  // the refused one must not disturb the first
  }

  @Test func closeRemovesSocketAndLock() throws {
    let temporary = TemporaryDirectory()
    let listener = try ListeningSocket.open(path: temporary.socketPath, environment: [:])
    listener.close()
    #expect(!fileExists(temporary.socketPath))
    #expect(!fileExists(temporary.socketPath + ".lock"))
    let again = try ListeningSocket.open(path: temporary.socketPath, environment: [:])
    again.close()
  }

  @Test func staleSocketIsRecovered() throws {
    let temporary = TemporaryDirectory()
    try makeBoundSocket(at: temporary.socketPath, listening: false)
    #expect(fileExists(temporary.socketPath))
    let listener = try ListeningSocket.open(path: temporary.socketPath, environment: [:])
    defer { listener.close() }
    _ = try TestClient(path: temporary.socketPath)  // connect succeeds: it is ours now
  }

  @Test func liveSocketWithoutLockIsRefused() throws {
    let temporary = TemporaryDirectory()
    let other = try makeBoundSocket(at: temporary.socketPath, listening: true)
    defer { close(other) }
    let error = #expect(throws: ServerError.self) {
      try ListeningSocket.open(path: temporary.socketPath, environment: [:])
    }
    #expect(error == .socketInUse(socketPath: temporary.socketPath))
    #expect(fileExists(temporary.socketPath))
    #expect(!fileExists(temporary.socketPath + ".lock"))  // released on failure
  }

  @Test func regularFileIsNeverRemoved() throws {
    let temporary = TemporaryDirectory()
    #expect(
      FileManager.default.createFile(atPath: temporary.socketPath, contents: Data("keep".utf8)))
    let error = #expect(throws: ServerError.self) {
      try ListeningSocket.open(path: temporary.socketPath, environment: [:])
    }
    #expect(error == .notASocket(path: temporary.socketPath))
    #expect(fileExists(temporary.socketPath))
  }

  @Test func tooLongPathIsAClearError() throws {
    let path = "/tmp/" + String(repeating: "x", count: 120) + "/stated.sock"
    let error = #expect(throws: ServerError.self) {
      try ListeningSocket.open(path: path, environment: [:])
    }
    #expect(error == .socketPathTooLong(path: path, maxBytes: 107))
    #expect(error?.description.contains("the limit is 107") == true)
  }

  /// Binds a raw socket at `path`; closes it at once when not `listening` (leaving a
  /// stale file). Returns the descriptor otherwise.
  @discardableResult
  private func makeBoundSocket(at path: String, listening: Bool) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8) }
    let status = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    #expect(status == 0)
    if listening {
      listen(fd, 4)
      return fd
    }
    close(fd)
    return -1
  }
}
