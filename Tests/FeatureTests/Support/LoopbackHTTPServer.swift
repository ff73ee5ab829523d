import BlocCore
import Dispatch
import Foundation
import Glibc

/// A tiny HTTP/1.1 server on 127.0.0.1 (port chosen by the kernel), running on
/// its own thread, that answers every request the same way and records the
/// request lines. Call `stop()` when done: it joins the thread.
///
/// ```swift
/// let server = try LoopbackHTTPServer(.respond(status: 200, body: "{}"))
/// defer { server.stop() }
/// // GET http://127.0.0.1:\(server.port)/search?term=x
/// server.requestLines  // ["GET /search?term=x HTTP/1.1"]
/// ```
final class LoopbackHTTPServer: Sendable {
  enum Behavior: Sendable {
    case respond(status: Int, body: String)
    /// Reads the request and then says nothing, holding the connection open.
    case neverAnswer
  }

  struct SocketError: Error, CustomStringConvertible {
    let call: String
    let code: Int32
    var description: String { "\(call): \(String(cString: strerror(code)))" }
  }

  private struct State {
    var requestLines: [String] = []
    var stopping = false
    var connectionsClosedByClient = 0
  }

  let port: UInt16
  private let listener: Int32
  private let behavior: Behavior
  private let state = Locked(State())
  private let finished = DispatchSemaphore(value: 0)

  init(_ behavior: Behavior) throws {
    (listener, port) = try Self.bindLoopback(listen: true)
    self.behavior = behavior
    Thread { [self] in serve() }.start()
  }

  var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/search")! }

  var requestLines: [String] { state.withLock { $0.requestLines } }

  /// A loopback port where nothing listens (connections are refused).
  static func closedPort() throws -> UInt16 {
    let (socket, port) = try bindLoopback(listen: false)
    close(socket)
    return port
  }

  /// Stops serving, closes every socket and waits for the thread to end.
  func stop() {
    let alreadyStopping = state.withLock { state in
      defer { state.stopping = true }
      return state.stopping
    }
    guard !alreadyStopping else { return }
    _ = finished.wait(timeout: .now() + 5)
  }

  /// Waits until `count` requests arrived; false on timeout.
  func waitForRequests(_ count: Int, timeout: Duration = .seconds(30)) async -> Bool {
    await waitUntil(timeout) { $0.requestLines.count >= count }
  }

  /// Waits until the client hung up on a held connection; false on timeout.
  func waitForClientHangUp(timeout: Duration = .seconds(30)) async -> Bool {
    await waitUntil(timeout) { $0.connectionsClosedByClient > 0 }
  }

  private func waitUntil(_ timeout: Duration, _ condition: (State) -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if state.withLock({ condition($0) }) { return true }
      try? await Task.sleep(for: .milliseconds(10))
    }
    return state.withLock { condition($0) }
  }

  private func serve() {
    var held: [Int32] = []
    defer {
      held.forEach { close($0) }
      close(listener)
      finished.signal()
    }
    // Short poll timeouts so `stop()` is noticed quickly.
    while !state.withLock({ $0.stopping }) {
      var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
      fds += held.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      guard poll(&fds, nfds_t(fds.count), 20) > 0 else { continue }
      for ready in fds.dropFirst() where ready.revents != 0 && !hasMoreInput(ready.fd) {
        close(ready.fd)
        held.removeAll { $0 == ready.fd }
        state.withLock { $0.connectionsClosedByClient += 1 }
      }
      if fds[0].revents & Int16(POLLIN) != 0 {
        let client = accept(listener, nil, nil)
        if client >= 0 { answer(client, held: &held) }
      }
    }
  }

  /// False when the peer closed the connection (or it broke).
  private func hasMoreInput(_ fd: Int32) -> Bool {
    var scratch = [UInt8](repeating: 0, count: 512)
    return recv(fd, &scratch, scratch.count, 0) > 0
  }

  private func answer(_ client: Int32, held: inout [Int32]) {
    guard let head = readHead(client) else {
      close(client)
      return
    }
    let requestLine = head.components(separatedBy: "\r\n").first ?? ""
    state.withLock { $0.requestLines.append(requestLine) }
    switch behavior {
    case .neverAnswer:
      held.append(client)
    case .respond(let status, let body):
      let payload = Array(body.utf8)
      let header =
        "HTTP/1.1 \(status) Test\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(payload.count)\r\nConnection: close\r\n\r\n"
      sendAll(client, Array(header.utf8) + payload)
      close(client)
    }
  }

  /// Reads up to the blank line that ends the request head (GETs have no body).
  private func readHead(_ client: Int32) -> String? {
    var timeout = timeval(tv_sec: 2, tv_usec: 0)
    setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while received.count < 65_536 {
      let count = recv(client, &chunk, chunk.count, 0)
      guard count > 0 else { return nil }
      received += chunk[..<count]
      let text = String(decoding: received, as: UTF8.self)
      if text.contains("\r\n\r\n") { return text }
    }
    return nil
  }

  private func sendAll(_ client: Int32, _ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes {
        send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard sent > 0 else { return }
      offset += sent
    }
  }

  private static func bindLoopback(listen shouldListen: Bool) throws -> (Int32, UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw SocketError(call: "socket", code: errno) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr = in_addr(s_addr: UInt32(0x7f00_0001).bigEndian)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        Glibc.bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
      }
    }
    guard bound, !shouldListen || listen(fd, 16) == 0 else {
      let code = errno
      close(fd)
      throw SocketError(call: "bind/listen", code: code)
    }
    return (fd, UInt16(bigEndian: address.sin_port))
  }
}
