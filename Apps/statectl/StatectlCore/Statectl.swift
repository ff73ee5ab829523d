import Glibc
import Wire

/// Runs one `statectl` command line and returns the exit status.
///
/// ```swift
/// let console = CapturedConsole()
/// let status = Statectl(console: console).run(["send", "counter", "increment"])
/// ```
public struct Statectl {
  public var console: any Console
  /// Looks up an environment variable (injectable for tests).
  public var environment: (String) -> String?
  public var uid: UInt32
  /// Called once a watch is established, before its states are printed (`main`
  /// installs the SIGINT/SIGTERM handlers here).
  public var willWatch: () -> Void

  public init(
    console: any Console,
    environment: @escaping (String) -> String? = Statectl.processEnvironment,
    uid: UInt32 = getuid(),
    willWatch: @escaping () -> Void = {}
  ) {
    self.console = console
    self.environment = environment
    self.uid = uid
    self.willWatch = willWatch
  }

  /// The process environment, through getenv(3).
  public static func processEnvironment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// Runs `arguments` (without the program name).
  public func run(_ arguments: [String]) -> ExitStatus {
    let invocation: Invocation
    do {
      invocation = try Invocation(parsing: arguments)
    } catch {
      let helpCommand = error.command.map { "statectl help \($0.rawValue)" } ?? "statectl --help"
      console.err("statectl: \(error.message)\nRun '\(helpCommand)' for usage.\n")
      return .usage
    }
    return run(invocation)
  }

  /// Runs a parsed command line.
  public func run(_ invocation: Invocation) -> ExitStatus {
    let options = invocation.options
    let socket = SocketPath.resolve(option: options.socket, environment: environment, uid: uid)
    var session = Session(
      console: console, socket: socket, timeout: options.timeout,
      json: options.output == .json || (options.output == .automatic && !console.isTerminal))
    switch invocation.command {
    case .help(let topic):
      console.out((topic.map(Help.command) ?? Help.general(socket: socket)) + "\n")
      return .success
    case .version:
      console.out("statectl \(Help.version) (protocol \(ProtocolInfo.version))\n")
      return .success
    case .watch(let feature, let count):
      return session.watch(feature: feature, count: count, willWatch: willWatch)
    default:
      return session.request(invocation.command)
    }
  }
}

/// A failure that ends the command with `status` after printing `message` to stderr.
struct Failure: Error {
  var status: ExitStatus
  var message: String
}

/// One conversation with the daemon.
struct Session {
  let console: any Console
  let socket: SocketPath
  let timeout: Duration?
  /// JSON lines instead of readable text.
  let json: Bool
  private var nextID: Int64 = 1

  init(console: any Console, socket: SocketPath, timeout: Duration?, json: Bool) {
    self.console = console
    self.socket = socket
    self.timeout = timeout
    self.json = json
  }

  /// Sends one request and prints its reply.
  mutating func request(_ command: Command) -> ExitStatus {
    let (op, fields) = Self.request(for: command)
    do {
      let connection = try connect(timeout: timeout)
      defer { connection.close() }
      let started = monotonicNanoseconds()
      let reply = try call(connection, op: op, fields: fields)
      let elapsed = monotonicNanoseconds() - started
      print(reply, for: command, roundTrip: elapsed)
      return .success
    } catch {
      return report(error)
    }
  }

  /// Watches `feature`, printing each state, until `count` states were printed or
  /// the process is interrupted (the handlers `willWatch` installs exit with 0).
  mutating func watch(feature: String, count: Int?, willWatch: () -> Void) -> ExitStatus {
    do {
      // A timeout would end a quiet watch, so only the connection attempt is bounded.
      let connection = try connect(timeout: nil)
      defer { connection.close() }
      willWatch()
      let reply = try call(connection, op: Request.Op.watch, fields: ["feature": .string(feature)])
      var printed = 0
      printState(
        feature: feature, seq: reply.fields["seq"]?.intValue, state: reply.fields["state"] ?? .null,
        extra: [:])
      printed += 1
      while count.map({ printed < $0 }) ?? true {
        let message: Message?
        do {
          message = try connection.readMessage()
        } catch {
          throw Failure(status: .connectionFailed, message: error.message)
        }
        guard let message else {
          throw Failure(
            status: .connectionFailed, message: "the daemon closed the connection; watch ended")
        }
        guard case .push(let push) = message, push.kind == Push.stateKind,
          push.feature == feature, let state = push.state
        else { continue }
        printState(feature: push.feature, seq: push.seq, state: state, extra: push.fields)
        printed += 1
      }
      return .success
    } catch {
      return report(error)
    }
  }

  static func request(for command: Command) -> (op: String, fields: JSONObject) {
    switch command {
    case .send(let feature, let event, let eventFields):
      var object: JSONObject = ["type": .string(event)]
      for (key, value) in eventFields { object[key] = value }
      return (Request.Op.send, ["feature": .string(feature), "event": .object(object)])
    case .get(let feature): return (Request.Op.get, ["feature": .string(feature)])
    case .watch(let feature, _): return (Request.Op.watch, ["feature": .string(feature)])
    case .describe(let feature): return (Request.Op.describe, ["feature": .string(feature)])
    case .undo(let feature): return (Request.Op.undo, ["feature": .string(feature)])
    case .redo(let feature): return (Request.Op.redo, ["feature": .string(feature)])
    case .features: return (Request.Op.features, [:])
    case .ping, .help, .version: return (Request.Op.ping, [:])
    }
  }

  private func connect(timeout: Duration?) throws(Failure) -> WireConnection {
    do {
      return try WireConnection.connect(path: socket.path, timeout: timeout)
    } catch {
      throw Failure(status: .unreachable, message: Diagnostics.unreachable(error, socket: socket))
    }
  }

  /// Sends the request and waits for its reply; a failed reply becomes a `.refused` failure.
  private mutating func call(
    _ connection: WireConnection, op: String, fields: JSONObject
  ) throws(Failure) -> ReplyMessage {
    let id = RequestID.number(nextID)
    nextID += 1
    let reply: ReplyMessage
    do {
      reply = try connection.call(Request(id: id, op: op, fields: fields))
    } catch {
      // An error the daemon sent without an id before closing (permission_denied,
      // frame_too_large) explains the closed connection better.
      if error.kind == .closed, let unsolicited = Self.unsolicitedError(connection) {
        throw Self.refusal(unsolicited, op: op, fields: fields)
      }
      throw Failure(
        status: .connectionFailed, message: Diagnostics.conversation(error, timeout: timeout))
    }
    if !reply.ok {
      throw Self.refusal(
        reply.error ?? WireError(.internalError, "request failed"), op: op, fields: fields)
    }
    return reply
  }

  /// The first failed reply without an id among the messages read so far.
  private static func unsolicitedError(_ connection: WireConnection) -> WireError? {
    while let message = try? connection.readMessage() {
      if case .reply(let reply) = message, reply.id == nil, let error = reply.error {
        return error
      }
    }
    return nil
  }

  /// The daemon refused: exit status 1, except that a daemon refusing this user is
  /// unreachable for it (3), like a socket it may not open.
  private static func refusal(_ error: WireError, op: String, fields: JSONObject) -> Failure {
    let status: ExitStatus = error.code == Diagnostics.permissionDenied ? .unreachable : .refused
    return Failure(status: status, message: Diagnostics.refused(error, op: op, fields: fields))
  }

  private func report(_ error: any Error) -> ExitStatus {
    guard let failure = error as? Failure else {
      console.err("statectl: \(error)\n")
      return .connectionFailed
    }
    console.err(failure.message + "\n")
    return failure.status
  }

  private func print(_ reply: ReplyMessage, for command: Command, roundTrip: UInt64) {
    if json {
      console.out(JSON.object(reply.fields).serializedString() + "\n")
      return
    }
    var lines: [String] = []
    switch command {
    case .send, .undo, .redo, .get:
      if let outcome = reply.fields["outcome"]?.stringValue, outcome != "handled" {
        lines.append("outcome: \(outcome)")
      }
      if reply.fields["changed"]?.boolValue == false {
        let step = if case .redo = command { "redo" } else { "undo" }
        lines.append("nothing to \(step); the state is unchanged:")
      }
      if let state = reply.fields["state"] {
        lines += HumanFormat.stateLines(state)
      } else if lines.isEmpty {
        lines.append("ok")
      }
    case .features:
      lines = SchemaFormat.featureLines(reply.fields, width: console.width)
    case .describe(let feature):
      lines = SchemaFormat.describeLines(reply.fields, feature: feature, width: console.width)
    case .ping:
      var daemon = reply.fields["daemon"].map(HumanFormat.scalarOrCompact) ?? "the daemon"
      if !daemon.hasPrefix("stated") && daemon != "the daemon" { daemon = "stated " + daemon }
      let version = reply.fields["protocol"]?.intValue
      let milliseconds = Double(roundTrip / 1000) / 1000
      lines.append(
        "\(daemon) answered in \(milliseconds) ms at \(socket.path), protocol "
          + (version.map(String.init) ?? "unknown"))
      if version != ProtocolInfo.version {
        console.err(
          "statectl: warning: statectl speaks protocol \(ProtocolInfo.version), the daemon "
            + (version.map { "speaks \($0)" } ?? "did not say which it speaks") + "\n")
      }
    case .watch, .help, .version:
      break
    }
    console.out(lines.joined(separator: "\n") + "\n")
  }

  /// One state of a watch: a JSON line, or `[seq] key: value, ...`.
  private func printState(feature: String, seq: Int?, state: JSON, extra: JSONObject) {
    if json {
      var line: JSONObject = ["feature": .string(feature)]
      if let seq { line["seq"] = JSON(seq) }
      line["state"] = state
      for (key, value) in extra where line[key] == nil { line[key] = value }
      console.out(JSON.object(line).serializedString() + "\n")
    } else {
      let prefix = seq.map { "[\($0)] " } ?? ""
      console.out(prefix + HumanFormat.inline(state) + "\n")
    }
  }
}

/// Nanoseconds on the monotonic clock.
func monotonicNanoseconds() -> UInt64 {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}
