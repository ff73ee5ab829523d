import AppSearch
import BlocCore
import FuzzSupport
import Glibc
import StateServer
import StatedFeatures
import SystemCalls
import Wire

/// `stated` in the fuzzing process: the daemon's features (registered by `registerFeatures`, as
/// `stated` registers them; in memory, with a search service that answers from the term)
/// behind its `RequestDispatcher` and `Server`, on a Unix socket in a temporary directory. An
/// input goes the way every request goes: bytes on a socket, the event loop's framing, the
/// dispatcher's reader and ops, the features' declarations and blocs, the reply writer.
public final class FuzzDaemon: Sendable {
  public static let shared = FuzzDaemon()

  public let registry: FeatureRegistry
  private let server: Server
  private let socketPath: String

  private init() {
    var template = Array("/tmp/fuzz-stated-XXXXXX".utf8CString)
    guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
      fatalError("mkdtemp: errno \(errno)")
    }
    socketPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } + "/s.sock"
    registry = FeatureRegistry()
    registerFeatures(
      in: registry, storage: InMemoryStorage(), searchServices: .using(EchoSearchService()))
    let dispatcher = RequestDispatcher(registry: registry, version: "fuzz")
    var configuration = ServerConfiguration(socketPath: socketPath, environment: [:])
    configuration.log = { _ in }
    server = Server(
      configuration: configuration, delegate: dispatcher, drain: { await dispatcher.drain() })
    do {
      try server.start()
    } catch {
      fatalError("cannot start the daemon on \(socketPath): \(error)")
    }
  }

  /// Sends `bytes` on a new connection, then ends its input, and returns every line the daemon
  /// wrote until it closed the connection (it does once every reply is written). A daemon that
  /// neither answers nor closes within 20 s is a failure (a search may wait out a throttle
  /// window first: up to 10 s, Settings' largest `searchThrottleMs`).
  public func exchange(_ bytes: UnsafeRawBufferPointer) -> [[UInt8]] {
    let fd = connectToDaemon()
    defer { close(fd) }
    fuzzCheck(
      writeAll(bytes, { rest, _ in send(fd, rest.baseAddress, rest.count, Int32(MSG_NOSIGNAL)) }),
      "cannot send to the daemon: errno \(errno)")
    shutdown(fd, Int32(SHUT_WR))
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let ready = retryingOnInterrupt { poll(&entry, 1, 20_000) }
      fuzzCheck(ready > 0, "the daemon neither answered nor closed within 20 s")
      let count = chunk.withUnsafeMutableBytes { buffer in
        retryingOnInterrupt { recv(fd, buffer.baseAddress, buffer.count, 0) }
      }
      if count == 0 || (count < 0 && errno == ECONNRESET) { break }
      fuzzCheck(count > 0, "recv from the daemon: errno \(errno)")
      received += chunk[0..<count]
    }
    fuzzCheck(received.isEmpty || received.last == 0x0A, "the daemon's output ends mid-line")
    return received.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map(
      Array.init)
  }

  private func connectToDaemon() -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    fuzzCheck(fd >= 0, "socket: errno \(errno)")
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: socketPath.utf8) }
    let status = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    fuzzCheck(status == 0, "cannot connect to the daemon: errno \(errno)")
    return fd
  }
}

/// Answers every search at once with two apps made from the term.
struct EchoSearchService: AppSearchService {
  func search(_ query: SearchQuery) async throws -> [App] {
    guard query.limit > 0, !query.term.allSatisfy(\.isWhitespace) else { return [] }
    return [App(id: 1, name: query.term), App(id: 2, name: query.term + " 2", rating: 4.5)]
  }
}
