import Wire

/// What `statectl call` sends: one request from the command line, or NDJSON from stdin.
public enum CallInput: Equatable, Sendable {
  /// `call '<json>'`: one request object, sent as it is.
  case request(JSONObject)
  /// `call -`: request lines read from standard input.
  case standardInput

  init(_ arguments: [String]) throws(CommandLineError) {
    guard let text = arguments.first else {
      throw CommandLineError(
        #"missing REQUEST: a JSON object such as '{"op":"ping"}', or - for lines on stdin"#,
        command: .call)
    }
    guard arguments.count == 1 else {
      throw CommandLineError("unexpected argument '\(arguments[1])'", command: .call)
    }
    if text == "-" {
      self = .standardInput
      return
    }
    let value: JSON
    do {
      value = try JSONParser().parse(text)
    } catch {
      throw CommandLineError("REQUEST is not JSON: \(error.message)", command: .call)
    }
    guard case .object(let object) = value else {
      throw CommandLineError(
        #"REQUEST must be a JSON object such as '{"op":"ping"}', got "# + value.typeName,
        command: .call)
    }
    self = .request(object)
  }
}

/// `statectl call`: raw requests and their replies, for scripts that would otherwise need
/// socat. Each reply is printed as the daemon sent it (in a pipe or with --json: the line
/// itself; on a terminal: indented JSON); pushes that arrive meanwhile are not printed. The exit
/// status is 1 when a reply has "ok": false (the reply itself says why), 0 otherwise.
extension Conversation {
  /// How many request lines are written before their replies are read: enough to pipeline,
  /// few enough that the daemon never holds back replies a blocked writer cannot read.
  static let callWindow = 64
  static let callWindowBytes = 64 << 10

  mutating func call(_ input: CallInput, read: @escaping () -> [UInt8]?) -> ExitStatus {
    do {
      let connection = try connect(timeout: timeout)
      defer { connection.close() }
      switch input {
      case .request(let object):
        var line = JSON.object(object).serialized()
        line.append(UInt8(ascii: "\n"))
        return try exchange(connection, [line])
      case .standardInput:
        var lines = InputLines(read: read)
        var status = ExitStatus.success
        var window: [[UInt8]] = []
        var bytes = 0
        while let line = lines.next() {
          // Blank lines get no reply from the daemon: they are not sent.
          guard !Self.isBlank(line) else { continue }
          window.append(line + [UInt8(ascii: "\n")])
          bytes += line.count + 1
          if window.count == Self.callWindow || bytes >= Self.callWindowBytes {
            if try exchange(connection, window) != .success { status = .refused }
            window.removeAll(keepingCapacity: true)
            bytes = 0
          }
        }
        if try exchange(connection, window) != .success { status = .refused }
        return status
      }
    } catch {
      return report(error)
    }
  }

  /// Writes `lines` at once, then prints one reply per line.
  private func exchange(
    _ connection: WireConnection, _ lines: [[UInt8]]
  ) throws(Failure) -> ExitStatus {
    guard !lines.isEmpty else { return .success }
    do {
      try connection.sendLine(Array(lines.joined()))
    } catch {
      throw conversationFailure(error, connection, op: "call", fields: [:])
    }
    var status = ExitStatus.success
    for _ in lines {
      let (line, reply) = try nextReply(connection)
      if reply["ok"]?.boolValue != true { status = .refused }
      console.out(
        (json ? String(decoding: line, as: UTF8.self) : JSON.object(reply).prettyPrinted())
          + "\n")
    }
    return status
  }

  /// The next line that is not a push, with its object.
  private func nextReply(
    _ connection: WireConnection
  ) throws(Failure) -> (line: [UInt8], reply: JSONObject) {
    while true {
      guard let (line, object) = try nextMessage(connection) else {
        throw Failure(
          status: .connectionFailed,
          message: "statectl: the daemon closed the connection before every reply came")
      }
      if object["push"] == nil { return (line, object) }
    }
  }

  /// Empty, or only spaces, tabs and carriage returns: what the daemon ignores.
  static func isBlank(_ line: [UInt8]) -> Bool {
    line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
  }
}

/// Lines from a reader of chunks (standard input), without their "\n"; the last line needs
/// none.
struct InputLines {
  let read: () -> [UInt8]?
  private var buffer: [UInt8] = []
  private var start = 0
  private var ended = false

  init(read: @escaping () -> [UInt8]?) { self.read = read }

  mutating func next() -> [UInt8]? {
    while true {
      if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
        let line = Array(buffer[start..<newline])
        start = newline + 1
        return line
      }
      if ended {
        guard start < buffer.count else { return nil }
        let line = Array(buffer[start...])
        start = buffer.count
        return line
      }
      buffer.removeFirst(start)
      start = 0
      if let chunk = read(), !chunk.isEmpty { buffer += chunk } else { ended = true }
    }
  }
}
