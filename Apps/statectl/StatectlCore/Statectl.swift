import Glibc
import SystemCalls
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
  /// Reads standard input, a chunk at a time; nil (or empty) at its end. Injectable for tests.
  public var readInput: () -> [UInt8]?
  /// Whether a command line without a command opens the interactive shell (`main`: when
  /// standard input and output are a terminal); otherwise it is a usage error, as in a script.
  public var opensShell: Bool

  public init(
    console: any Console,
    environment: @escaping (String) -> String? = Statectl.processEnvironment,
    uid: UInt32 = geteuid(),
    willWatch: @escaping () -> Void = {},
    readInput: @escaping () -> [UInt8]? = Statectl.readStandardInput,
    opensShell: Bool = false
  ) {
    self.console = console
    self.environment = environment
    self.uid = uid
    self.willWatch = willWatch
    self.readInput = readInput
    self.opensShell = opensShell
  }

  /// The next chunk of file descriptor 0; nil at its end or on an error.
  public static func readStandardInput() -> [UInt8]? {
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    let count = chunk.withUnsafeMutableBytes { buffer in
      retryingOnInterrupt { read(0, buffer.baseAddress, buffer.count) }
    }
    return count > 0 ? Array(chunk[..<count]) : nil
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
      if opensShell, let options = error.optionsWithoutCommand {
        let socket = SocketPath.resolve(option: options.socket, environment: environment, uid: uid)
        return InteractiveShell(options: arguments, environment: environment, uid: uid)
          .run(socket: socket)
      }
      let helpCommand = error.command.map { "statectl help \($0.rawValue)" } ?? "statectl --help"
      let hint = "Run '\(helpCommand)' for usage."
      // Errors are JSON where replies would be: the command line could not be parsed, so
      // look for --json and --human in it.
      if ErrorReport.isJSON(arguments: arguments, terminal: console.isTerminal) {
        console.err(
          ErrorReport.json(status: .usage, code: "usage", message: error.message, hint: hint))
      } else {
        console.err("statectl: \(error.message)\n\(hint)\n")
      }
      return .usage
    }
    return run(invocation)
  }

  /// Runs a parsed command line.
  public func run(_ invocation: Invocation) -> ExitStatus {
    let options = invocation.options
    let socket = SocketPath.resolve(option: options.socket, environment: environment, uid: uid)
    let json = options.output == .json || (options.output == .automatic && !console.isTerminal)
    var session = Conversation(
      console: console, socket: socket, timeout: options.timeout, json: json, jsonErrors: json)
    // Colour only for a person, and never when NO_COLOR is set (no-color.org).
    session.colour = !session.json && console.isTerminal && environment("NO_COLOR") == nil
    switch invocation.command {
    case .help(let topic):
      console.out((topic.map(Help.command) ?? Help.general(socket: socket)) + "\n")
      return .success
    case .version:
      console.out("statectl \(Help.version) (protocol \(ProtocolInfo.version))\n")
      return .success
    case .socket:
      console.out(socket.path + "\n")
      return .success
    case .completions(let shell):
      console.out(CompletionScript.text(for: shell))
      return .success
    case .manPage:
      console.out(ManPage.statectl)
      return .success
    case .complete(let words):
      let candidates = Completion(environment: environment, uid: uid).candidates(words)
      console.out(candidates.map { $0 + "\n" }.joined())
      return .success
    case .watch(let features, let count, let select):
      return session.watch(features: features, count: count, select: select, willWatch: willWatch)
    case .monitor(let features, let count, let filter):
      return session.monitor(
        features: features, count: count, filter: filter, timeTravel: invocation.timeTravel,
        willWatch: willWatch)
    case .replay(let file, let features, let skipEffects):
      return session.replay(file: file, features: features, skipEffects: skipEffects)
    case .exportTest(let file, let feature, let name, let output):
      return session.exportTest(file: file, feature: feature, name: name, output: output)
    default:
      break
    }
    var command = invocation.command
    if case .sendStandardInput(let feature) = command {
      do {
        command = try StandardInputEvent.command(feature: feature, read: readInput)
      } catch {
        return session.report(error)
      }
    }
    guard let repetition = options.repetition else {
      return session.perform(command, read: readInput)
    }
    if repetition.count == nil { willWatch() }  // Ctrl-C ends an endless repetition cleanly
    return repetition.run { session.perform(command, read: readInput) }
  }
}

/// A failure that ends the command with `status` after printing `message` to stderr.
struct Failure: Error {
  var status: ExitStatus
  var message: String
  /// The daemon's error, when it refused.
  var refusal: WireError?
}

/// One conversation with the daemon.
struct Conversation {
  let console: any Console
  let socket: SocketPath
  let timeout: Duration?
  /// JSON lines instead of readable text.
  let json: Bool
  /// Errors as one JSON object on stderr (`--json`, or stdout not a terminal without
  /// `--human`), like replies.
  let jsonErrors: Bool
  /// ANSI colours in text output (a terminal, NO_COLOR unset).
  var colour = false
  var nextID: Int64 = 1

  init(console: any Console, socket: SocketPath, timeout: Duration?, json: Bool, jsonErrors: Bool) {
    self.console = console
    self.socket = socket
    self.timeout = timeout
    self.json = json
    self.jsonErrors = jsonErrors
  }

  /// Runs a command that talks to the daemon and ends by itself.
  mutating func perform(_ command: Command, read: @escaping () -> [UInt8]?) -> ExitStatus {
    switch command {
    case .get(let features, let select) where features.count > 1:
      return get(features: features, select: select)
    case .call(let input):
      return call(input, read: read)
    case .history(let feature, let last, let since):
      return history(feature: feature, last: last, since: since)
    default:
      return request(command)
    }
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

  static func request(for command: Command) -> (op: String, fields: JSONObject) {
    switch command {
    case .send(let feature, let event, let eventFields):
      var object: JSONObject = ["type": .string(event)]
      for (key, value) in eventFields { object[key] = value }
      return (Request.Op.send, ["feature": .string(feature), "event": .object(object)])
    case .get(let features, let select):
      var fields: JSONObject = ["feature": .string(features.first ?? "")]
      if let select { fields["select"] = .string(select) }
      return (Request.Op.get, fields)
    case .watch(let features, _, let select):
      var fields: JSONObject = ["feature": .string(features.first ?? "")]
      if let select { fields["select"] = .string(select) }
      return (Request.Op.watch, fields)
    case .monitor(let features, _, _):
      return ("monitor", features.isEmpty ? [:] : ["features": .array(features.map(JSON.string))])
    case .describe(let feature): return (Request.Op.describe, ["feature": .string(feature)])
    case .undo(let feature): return (Request.Op.undo, ["feature": .string(feature)])
    case .redo(let feature): return (Request.Op.redo, ["feature": .string(feature)])
    case .goto(let feature, let seq):
      return ("goto", ["feature": .string(feature), "seq": .integer(Int64(clamping: seq))])
    case .history(let feature, let last, let since):
      return (historyOp, historyFields(feature: feature, last: last, since: since))
    case .features: return (Request.Op.features, [:])
    case .info: return (Request.Op.info, [:])
    case .ping, .help, .version, .socket, .completions, .complete, .manPage, .replay, .exportTest,
      .call, .sendStandardInput:
      return (Request.Op.ping, [:])
    }
  }

  func connect(timeout: Duration?) throws(Failure) -> WireConnection {
    do {
      return try WireConnection.connect(path: socket.path, timeout: timeout)
    } catch {
      throw Failure(status: .unreachable, message: Diagnostics.unreachable(error, socket: socket))
    }
  }

  /// Sends the request and waits for its reply; a failed reply becomes a `.refused` failure.
  mutating func call(
    _ connection: WireConnection, op: String, fields: JSONObject
  ) throws(Failure) -> ReplyMessage {
    let id = RequestID.number(nextID)
    nextID += 1
    let reply: ReplyMessage
    do {
      reply = try connection.call(Request(id: id, op: op, fields: fields))
    } catch {
      throw conversationFailure(error, connection, op: op, fields: fields)
    }
    if !reply.ok {
      throw Self.refusal(
        reply.error ?? WireError(.internalError, "request failed"), op: op, fields: fields)
    }
    return reply
  }

  /// What a broken conversation means: an error the daemon sent without an id before closing
  /// (permission_denied, frame_too_large) explains the closed connection better.
  func conversationFailure(
    _ error: ConnectionError, _ connection: WireConnection, op: String, fields: JSONObject
  ) -> Failure {
    if error.kind == .closed, let unsolicited = Self.unsolicitedError(connection) {
      return Self.refusal(unsolicited, op: op, fields: fields)
    }
    return Failure(
      status: .connectionFailed, message: Diagnostics.conversation(error, timeout: timeout))
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
  static func refusal(_ error: WireError, op: String, fields: JSONObject) -> Failure {
    let status: ExitStatus = error.code == Diagnostics.permissionDenied ? .unreachable : .refused
    return Failure(
      status: status, message: Diagnostics.refused(error, op: op, fields: fields), refusal: error)
  }

  /// Prints the failure on stderr (as JSON where replies are JSON) and returns its status.
  func report(_ error: any Error) -> ExitStatus {
    let failure =
      error as? Failure ?? Failure(status: .connectionFailed, message: "statectl: \(error)")
    console.err(
      jsonErrors ? ErrorReport.json(failure) : failure.message + "\n")
    return failure.status
  }

  private func print(_ reply: ReplyMessage, for command: Command, roundTrip: UInt64) {
    if json {
      console.out(JSON.object(reply.fields).serializedString() + "\n")
      return
    }
    var lines: [String] = []
    switch command {
    case .send, .undo, .redo, .get, .goto:
      if let outcome = reply.fields["outcome"]?.stringValue, outcome != "handled" {
        lines.append("outcome: \(outcome)")
      }
      if reply.fields["changed"]?.boolValue == false {
        let step = if case .redo = command { "redo" } else { "undo" }
        lines.append("nothing to \(step); the state is unchanged:")
      }
      // `value`: the part of the state `get --select` asked for.
      if let state = reply.fields["state"] ?? reply.fields["value"] {
        lines += HumanFormat.stateLines(state)
      } else if lines.isEmpty {
        lines.append("ok")
      }
    case .features:
      lines = SchemaFormat.featureLines(reply.fields, width: console.width)
    case .info:
      lines = InfoFormat.lines(reply.fields)
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
    case .watch, .monitor, .help, .version, .socket, .completions, .complete, .manPage, .history,
      .replay, .exportTest, .call, .sendStandardInput:
      break
    }
    console.out(lines.joined(separator: "\n") + "\n")
  }
}

/// Nanoseconds on the monotonic clock.
func monotonicNanoseconds() -> UInt64 {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}
