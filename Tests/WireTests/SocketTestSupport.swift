import Glibc
import SystemCalls
import Wire

/// Runs `body` on a new POSIX thread (blocking socket code must stay off the
/// Swift concurrency pool).
struct TestThread: Sendable {
  private final class Body: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }

  private let thread: pthread_t

  init(_ body: @escaping @Sendable () -> Void) {
    var thread = pthread_t()
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    let result = pthread_create(
      &thread, nil,
      { context in
        Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
        return nil
      }, context)
    precondition(result == 0, "pthread_create failed")
    self.thread = thread
  }

  func join() { pthread_join(thread, nil) }
}

/// A fresh directory under /tmp, removed (with the given files) by `remove()`.
struct TempDirectory {
  let path: String

  init() {
    var template = Array("/tmp/wire-test.XXXXXX".utf8CString)
    guard mkdtemp(&template) != nil else { fatalError("mkdtemp failed") }
    path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
  }

  func remove(_ names: String...) {
    for name in names { unlink(path + "/" + name) }
    rmdir(path)
  }
}

/// A Unix socket bound to `path`; listening unless `listen` is false.
func makeServerSocket(path: String, listen shouldListen: Bool = true) -> Int32 {
  let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
  precondition(fd >= 0)
  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  withUnsafeMutableBytes(of: &address.sun_path) { raw in
    let bytes = Array(path.utf8)
    raw.copyBytes(from: bytes)
    raw[bytes.count] = 0
  }
  let result = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
    }
  }
  precondition(result == 0, "bind failed: \(errno)")
  if shouldListen { precondition(listen(fd, 8) == 0) }
  return fd
}

/// Writes all bytes, `chunk` bytes per call.
func writeAll(_ fd: Int32, _ bytes: [UInt8], chunk: Int = .max) {
  _ = bytes.withUnsafeBytes { bytes in
    writeAll(bytes) { rest, _ in
      send(fd, rest.baseAddress, min(chunk, rest.count), Int32(MSG_NOSIGNAL))
    }
  }
}

/// A one-connection server on a temp-dir socket. `handle` gets the accepted
/// descriptor (closed afterwards) on a background thread.
final class TestServer: Sendable {
  let directory = TempDirectory()
  let path: String
  private let listener: Int32
  private let thread: TestThread

  init(_ handle: @escaping @Sendable (Int32) -> Void) {
    path = directory.path + "/stated.sock"
    let listener = makeServerSocket(path: path)
    self.listener = listener
    thread = TestThread {
      let client = accept(listener, nil, nil)
      guard client >= 0 else { return }
      handle(client)
      close(client)
    }
  }

  /// Waits for the handler to finish and removes the socket.
  func finish() {
    thread.join()
    close(listener)
    directory.remove("stated.sock")
  }
}

/// A miniature daemon: `ping` pushes a state then replies; `echo` replies with
/// the request; `big` replies with `n` bytes of text written in small pieces;
/// `quit` closes; bad frames get the protocol error reply.
func miniDaemon(_ fd: Int32) {
  var framer = LineFramer()
  var buffer = [UInt8](repeating: 0, count: 4096)
  var sequence = 0
  while true {
    let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return }
    buffer.withUnsafeBytes { framer.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    while let event = framer.next() {
      guard case .frame(let frame) = event else { continue }
      do {
        let request = try Request(parsing: frame)
        switch request.op {
        case "ping":
          sequence += 1
          writeAll(
            fd,
            Push.state(
              feature: "counter", sequence: sequence, state: ["count": .integer(Int64(sequence))]))
          writeAll(fd, Reply.success(id: request.id, fields: ["daemon": "test", "protocol": 1]))
        case "echo":
          writeAll(fd, Reply.success(id: request.id, fields: ["echo": request.json]))
        case "big":
          let size = request["n"]?.intValue ?? 0
          let text = String(repeating: "x", count: size)
          writeAll(fd, Reply.success(id: request.id, fields: ["text": .string(text)]), chunk: 1000)
        case "quit":
          return
        default:
          writeAll(fd, Reply.failure(id: request.id, .unknownOp(request.op)))
        }
      } catch {
        writeAll(fd, error.reply)
      }
    }
  }
}
