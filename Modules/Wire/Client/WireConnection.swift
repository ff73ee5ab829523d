import Glibc  // Linux only, like the daemon

/// A blocking client connection to the daemon's Unix socket, for CLIs and tests.
///
/// ```swift
/// let connection = try WireConnection.connect(path: "/run/user/1000/stated.sock")
/// defer { connection.close() }
/// let reply = try connection.call(Request(id: 1, op: Request.Op.ping))
/// reply.fields["protocol"]  // 1
///
/// try connection.send(Request(op: Request.Op.watch, fields: ["feature": "counter"]))
/// while let message = try connection.readMessage() { print(message) }  // nil at EOF
/// ```
///
/// Not thread-safe: use one connection from one thread at a time.
public final class WireConnection {
  private var fd: Int32
  private var framer: LineFramer
  private let readBuffer: UnsafeMutableRawBufferPointer
  /// Messages read by `call` while waiting for its reply, returned by `readMessage` first.
  private var queued: [Message] = []

  /// Wraps an already connected stream socket, which the connection now owns.
  public init(fileDescriptor: Int32, maxFrameBytes: Int = 1 << 24) {
    fd = fileDescriptor
    framer = LineFramer(maxFrameBytes: maxFrameBytes)
    readBuffer = .allocate(byteCount: 1 << 16, alignment: 1)
  }

  /// Connects to the socket at `path`. A `timeout` bounds each send and
  /// receive (and the connect); nil waits forever.
  public static func connect(
    path: String, timeout: Duration? = nil, maxFrameBytes: Int = 1 << 24
  ) throws(ConnectionError) -> WireConnection {
    let fd = try UnixSocket.connect(path: path, timeout: timeout)
    return WireConnection(fileDescriptor: fd, maxFrameBytes: maxFrameBytes)
  }

  deinit {
    close()
    readBuffer.deallocate()
  }

  /// Whether `close()` has been called.
  public var isClosed: Bool { fd < 0 }

  /// Closes the socket. Further calls fail with `.closed`; closing twice is fine.
  public func close() {
    guard fd >= 0 else { return }
    Glibc.close(fd)
    fd = -1
  }

  /// Writes `request` as one line.
  public func send(_ request: Request) throws(ConnectionError) {
    try sendLine(request.serialized())
  }

  /// Writes `json` (compact, so a single line) followed by `"\n"`.
  public func send(_ json: JSON) throws(ConnectionError) {
    var line = json.serialized()
    line.append(.lineFeed)
    try sendLine(line)
  }

  /// Writes raw bytes, which should be one or more complete lines.
  public func sendLine(_ bytes: [UInt8]) throws(ConnectionError) {
    try UnixSocket.sendAll(try openDescriptor(), bytes)
  }

  /// Blocks for the next line (without terminator); nil when the daemon
  /// closed the connection cleanly between lines.
  public func readLine() throws(ConnectionError) -> [UInt8]? {
    while true {
      switch framer.next() {
      case .frame(let line)?: return line
      case .oversized(let count)?:
        throw ConnectionError(
          .frameTooLarge,
          "message of at least \(count) bytes exceeds the limit of \(framer.maxFrameBytes) bytes")
      case nil: break
      }
      let count = try UnixSocket.receive(try openDescriptor(), into: readBuffer)
      if count == 0 {
        guard framer.bufferedByteCount == 0 else {
          throw ConnectionError(.closed, "connection closed in the middle of a message")
        }
        return nil
      }
      framer.append(UnsafeRawBufferPointer(rebasing: readBuffer[..<count]))
    }
  }

  /// Blocks for the next message; nil when the daemon closed the connection.
  public func readMessage() throws(ConnectionError) -> Message? {
    if !queued.isEmpty { return queued.removeFirst() }
    guard let line = try readLine() else { return nil }
    do {
      return try Message(parsing: line)
    } catch {
      throw ConnectionError(.malformedMessage, "malformed message from the daemon: \(error)")
    }
  }

  /// Sends `request` and blocks for the reply with its id. Pushes and other
  /// replies that arrive first are kept, in order, for `readMessage()`.
  /// A request without id matches the first reply without id.
  public func call(_ request: Request) throws(ConnectionError) -> ReplyMessage {
    try send(request)
    var skipped: [Message] = []
    defer { queued.append(contentsOf: skipped) }
    while true {
      guard let message = try readMessage() else {
        throw ConnectionError(.closed, "connection closed before the reply to '\(request.op)'")
      }
      if case .reply(let reply) = message, reply.id == request.id { return reply }
      skipped.append(message)
    }
  }

  private func openDescriptor() throws(ConnectionError) -> Int32 {
    guard fd >= 0 else { throw ConnectionError(.closed, "connection is closed") }
    return fd
  }
}
