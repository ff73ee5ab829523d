import Glibc
import Wire

/// A fresh directory under /tmp with a short path (sun_path holds 107 bytes), removed
/// with its files by `remove()`.
struct TemporaryDirectory {
  let path: String

  init() {
    var template = Array("/tmp/cli-test.XXXXXX".utf8CString)
    let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    precondition(created != nil, "mkdtemp failed: errno \(errno)")
    path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
  }

  func remove() {
    guard let directory = opendir(path) else { return }
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { unlink(path + "/" + name) }
    }
    closedir(directory)
    rmdir(path)
  }
}

/// Binds a Unix socket at `path`, listening unless `listen` is false (which leaves a
/// stale socket file once closed: connecting to it is refused).
func bindSocket(path: String, listen shouldListen: Bool = true) -> Int32 {
  let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
  precondition(fd >= 0)
  precondition(bind(fd, toPath: path) == 0, "bind failed: errno \(errno)")
  if shouldListen { precondition(listen(fd, 8) == 0) }
  return fd
}

/// Binds `fd` to the Unix socket address `path`; what bind(2) returns.
func bind(_ fd: Int32, toPath path: String) -> Int32 {
  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  withUnsafeMutableBytes(of: &address.sun_path) { raw in
    let bytes = Array(path.utf8)
    raw.copyBytes(from: bytes)
    raw[bytes.count] = 0
  }
  return withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
    }
  }
}

/// Runs `body` on a new POSIX thread (blocking socket code stays off the Swift pool).
final class Thread: Sendable {
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

/// A one-connection stand-in for stated: reads request lines and writes back what
/// `answer` returns for each (complete lines, each ending in "\n"); an answer of nil
/// closes the connection, and so does any answer when `closeAfterAnswer`. Records the
/// requests it saw.
final class FakeDaemon: @unchecked Sendable {
  let directory = TemporaryDirectory()
  let path: String
  private let listener: Int32
  private var thread: Thread?
  private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private var seen: [Request] = []

  init(closeAfterAnswer: Bool = false, _ answer: @escaping @Sendable (Request) -> [UInt8]?) {
    path = directory.path + "/stated.sock"
    listener = bindSocket(path: path)
    pthread_mutex_init(lock, nil)
    let listener = listener
    thread = Thread { [self] in
      let client = accept(listener, nil, nil)
      guard client >= 0 else { return }
      defer { close(client) }
      var framer = LineFramer()
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return }
        buffer.withUnsafeBytes { framer.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        while case .frame(let frame)? = framer.next() {
          guard let request = try? Request(parsing: frame) else { return }
          record(request)
          guard let reply = answer(request) else { return }
          _ = reply.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
          if closeAfterAnswer { return }
        }
      }
    }
  }

  private func record(_ request: Request) {
    pthread_mutex_lock(lock)
    seen.append(request)
    pthread_mutex_unlock(lock)
  }

  /// Waits for the connection to end, then removes the socket; returns the requests seen.
  @discardableResult
  func finish() -> [Request] {
    shutdown(listener, Int32(SHUT_RDWR))  // wakes accept(2) if nobody connected
    thread?.join()
    close(listener)
    directory.remove()
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    return seen
  }

  deinit {
    pthread_mutex_destroy(lock)
    lock.deallocate()
  }
}
