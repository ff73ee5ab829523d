import Wire

/// The commands of `statectl`.
public enum CommandName: String, CaseIterable, Sendable {
  case send, get, watch, monitor, features, describe, undo, redo, history, goto, replay
  case exportTest = "export-test"
  case ping, info, call, socket, completions, help
}

/// The shells `statectl completions` writes a script for.
public enum Shell: String, CaseIterable, Sendable {
  case bash, zsh, fish
}

/// How replies are printed.
public enum OutputMode: Equatable, Sendable {
  /// Readable text on a terminal, JSON lines otherwise.
  case automatic
  /// One JSON object per line (`--json`).
  case json
  /// Readable text even when piped (`--human`).
  case human
}

/// Options that every command accepts.
public struct GlobalOptions: Equatable, Sendable {
  /// `--socket PATH`; nil means `$STATED_SOCKET` or the daemon's default.
  public var socket: String?
  public var output: OutputMode = .automatic
  /// `--timeout SECONDS` for connecting and for each reply; nil waits forever.
  public var timeout: Duration? = .seconds(10)
  /// `-r N` / `-i SECONDS`: run the command again and again; nil runs it once.
  public var repetition: Repetition?

  public init(
    socket: String? = nil, output: OutputMode = .automatic, timeout: Duration? = .seconds(10),
    repetition: Repetition? = nil
  ) {
    self.socket = socket
    self.output = output
    self.timeout = timeout
    self.repetition = repetition
  }
}

/// What to do, with its arguments checked.
public enum Command: Equatable, Sendable {
  case send(feature: String, event: String, fields: JSONObject)
  /// `send FEATURE -`: the whole event, as a JSON object, from standard input.
  case sendStandardInput(feature: String)
  /// One or more features, asked on one connection. `select`: a member path; only that part
  /// of each state is printed.
  case get(features: [String], select: String? = nil)
  /// One or more features on one connection. `count`: stop after this many states (the current
  /// ones included); nil runs until interrupted. `select`: a member path (`count`,
  /// `search.marks`); only changes of that part of the state are printed.
  case watch(features: [String], count: Int?, select: String?)
  /// Every event the daemon concludes, in the given features (all when empty), that `filter`
  /// lets through. `count`: stop after this many events.
  case monitor(features: [String], count: Int?, filter: MonitorFilter = MonitorFilter())
  case features
  case describe(feature: String)
  case undo(feature: String)
  case redo(feature: String)
  /// A feature's recorded transitions: the last `last`, or those from `since` on (neither: the
  /// daemon's default, the last 100).
  case history(feature: String, last: Int?, since: UInt64?)
  /// Sets a feature to its state right after `seq`, as a new change.
  case goto(feature: String, seq: UInt64)
  /// Replays a recording (`monitor --record`) against the daemon and compares every outcome
  /// and state; `features` limits it to some of the recorded ones (empty: all).
  case replay(file: String, features: [String], skipEffects: Bool)
  /// Writes a Swift Testing file that replays one recorded feature with BlocTest.
  case exportTest(file: String, feature: String, name: String?, output: String?)
  case ping
  /// The daemon's state (the `info` op).
  case info
  /// Raw requests: one given on the command line, or NDJSON lines from standard input.
  case call(CallInput)
  /// Prints the socket path that would be used.
  case socket
  /// Prints the completion script for a shell.
  case completions(Shell)
  /// Candidates for a shell completion (hidden; the completion scripts call it):
  /// `__complete WORDS…`, the words of the command line after `statectl`, the last one being
  /// completed.
  case complete([String])
  /// Prints the manual page statectl(1) (hidden; Scripts/install runs it).
  case manPage
  /// General help, or one command's.
  case help(CommandName?)
  case version
}

/// A command line that cannot be run: the message, and the command whose help to point to.
public struct CommandLineError: Error, Equatable, Sendable {
  public var message: String
  public var command: CommandName?
  /// The options of a command line that names no command: on a terminal, `statectl` opens its
  /// interactive shell with them instead of failing.
  public var optionsWithoutCommand: GlobalOptions?

  public init(
    _ message: String, command: CommandName? = nil, optionsWithoutCommand: GlobalOptions? = nil
  ) {
    self.message = message
    self.command = command
    self.optionsWithoutCommand = optionsWithoutCommand
  }
}

/// A parsed command line.
///
/// Options may appear before or after the command; `--` ends them, so that later
/// arguments starting with `-` are taken as they are.
///
/// ```swift
/// try Invocation(parsing: ["--json", "send", "counter", "set", "value:=3"]).command
/// // .send(feature: "counter", event: "set", fields: ["value": 3])
/// ```
public struct Invocation: Equatable, Sendable {
  public var options: GlobalOptions
  public var command: Command
  /// `monitor --diff` and `--record FILE` (the other time-travel options are in `command`).
  public var timeTravel: TimeTravelOptions

  public init(
    options: GlobalOptions = GlobalOptions(), command: Command,
    timeTravel: TimeTravelOptions = TimeTravelOptions()
  ) {
    self.options = options
    self.command = command
    self.timeTravel = timeTravel
  }

  /// Parses the arguments after the program name.
  public init(parsing arguments: [String]) throws(CommandLineError) {
    // The words of a command line being completed are taken as they are: they may hold a
    // partial option.
    if arguments.first == Self.completeCommand {
      self.init(command: .complete(Array(arguments.dropFirst())))
      return
    }
    if arguments == [ManPage.command] {
      self.init(command: .manPage)
      return
    }
    var options = GlobalOptions()
    var positionals: [String] = []
    var wantsHelp = false
    var wantsVersion = false
    var count: Int?
    var select: String?
    var timeTravel = TimeTravelOptions()
    var filter = MonitorFilter()
    var repeats: Int?
    var interval: Duration?
    var remaining = arguments[...]
    var optionsEnded = false

    // The command, once known, so that errors point to its help.
    func currentCommand() -> CommandName? {
      positionals.first.flatMap(CommandName.init(rawValue:))
    }

    while let argument = remaining.popFirst() {
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      var name = argument
      var attached: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        attached = String(argument[argument.index(after: equals)...])
      }
      func value(_ what: String) throws(CommandLineError) -> String {
        if let attached { return attached }
        guard let next = remaining.popFirst() else {
          throw CommandLineError(
            "option \(name) needs a value (\(what))", command: currentCommand())
        }
        return next
      }
      func flag() throws(CommandLineError) {
        if attached != nil {
          throw CommandLineError("option \(name) takes no value", command: currentCommand())
        }
      }
      switch name {
      case "-h", "--help":
        try flag()
        wantsHelp = true
      case "-V", "--version":
        try flag()
        wantsVersion = true
      case "--json":
        try flag()
        options.output = .json
      case "--human":
        try flag()
        options.output = .human
      case "--socket", "-s":
        let path = try value("a socket path")
        guard !path.isEmpty else {
          throw CommandLineError("option \(name) needs a non-empty path", command: currentCommand())
        }
        options.socket = path
      case "--timeout":
        let text = try value("seconds")
        guard let seconds = Double(text), seconds >= 0, seconds <= 86_400 else {
          throw CommandLineError(
            "option --timeout needs a number of seconds (0 waits forever), got '\(text)'",
            command: currentCommand())
        }
        options.timeout = seconds == 0 ? nil : .milliseconds(Int64((seconds * 1000).rounded(.up)))
      case "--count", "-n":
        let text = try value("a number")
        guard let number = Int(text), number > 0 else {
          throw CommandLineError(
            "option \(name) needs a positive whole number, got '\(text)'",
            command: currentCommand() ?? .watch)
        }
        count = number
      case "--select":
        let path = try value("a member path such as count or results")
        guard Self.isMemberPath(path) else {
          throw CommandLineError(
            "option --select needs member names separated by '.', such as count or a.b; got '\(path)'",
            command: .watch)
        }
        select = path
      case "--event":
        let type = try value("an event type")
        guard !type.isEmpty else {
          throw CommandLineError("option --event needs an event type", command: .monitor)
        }
        filter.events.append(type)
      case "--outcome":
        let outcome = try value(MonitorFilter.outcomes.joined(separator: ", "))
        guard MonitorFilter.outcomes.contains(outcome) else {
          throw CommandLineError(
            "option --outcome needs one of "
              + MonitorFilter.outcomes.joined(separator: ", ") + "; got '\(outcome)'",
            command: .monitor)
        }
        filter.outcomes.append(outcome)
      case "-r", "--repeat":
        let text = try value("a number of times, or -1 for ever")
        guard let number = Int(text), number > 0 || number == -1 else {
          throw CommandLineError(
            "option \(name) needs a positive whole number (or -1: until interrupted), got '\(text)'",
            command: currentCommand())
        }
        repeats = number
      case "-i", "--interval":
        let text = try value("seconds")
        guard let seconds = Double(text), seconds >= 0, seconds <= 86_400 else {
          throw CommandLineError(
            "option \(name) needs a number of seconds, such as 1 or 0.1; got '\(text)'",
            command: currentCommand())
        }
        interval = .milliseconds(Int64((seconds * 1000).rounded()))
      default:
        guard try timeTravel.take(name, command: currentCommand(), value: value, flag: flag) else {
          throw CommandLineError("unknown option '\(argument)'", command: currentCommand())
        }
      }
    }

    if wantsVersion {
      self.init(options: options, command: .version)
      return
    }
    guard let first = positionals.first else {
      if wantsHelp {
        self.init(options: options, command: .help(nil))
        return
      }
      throw CommandLineError("missing command", optionsWithoutCommand: options)
    }
    guard let name = CommandName(rawValue: first) else {
      var message = "unknown command '\(first)'"
      if let guess = Self.suggestion(for: first) {
        message += " (did you mean '\(guess.rawValue)'?)"
      }
      throw CommandLineError(message)
    }
    if count != nil && name != .watch && name != .monitor && !wantsHelp {
      throw CommandLineError("option --count is only for 'watch' and 'monitor'", command: name)
    }
    if select != nil && name != .watch && name != .get && !wantsHelp {
      throw CommandLineError("option --select is only for 'get' and 'watch'", command: name)
    }
    if !filter.isEmpty && name != .monitor && !wantsHelp {
      throw CommandLineError("options --event and --outcome are only for 'monitor'", command: name)
    }
    if repeats != nil || interval != nil {
      guard Repetition.commands.contains(name) || wantsHelp else {
        throw CommandLineError(
          "options -r and -i repeat a request; '\(name.rawValue)' cannot be repeated",
          command: name)
      }
      // -r -1, and -i alone (like watch(1)), repeat until interrupted.
      options.repetition = Repetition(
        count: repeats.flatMap { $0 == -1 ? nil : $0 }, interval: interval ?? .zero)
    }
    if wantsHelp {
      self.init(options: options, command: .help(name == .help ? nil : name))
      return
    }
    try timeTravel.check(for: name)
    let arguments = Array(positionals.dropFirst())
    let command: Command
    if let timeTravelCommand = try timeTravel.command(name, arguments) {
      command = timeTravelCommand
    } else {
      command = try Self.command(
        name, arguments, count: count, select: select, filter: filter)
    }
    if options.repetition != nil, case .call(.standardInput) = command {
      throw CommandLineError(
        "'call -' reads its requests from stdin once; it cannot be repeated with -r or -i",
        command: .call)
    }
    self.init(options: options, command: command, timeTravel: timeTravel)
  }

  /// The hidden command the completion scripts run.
  public static let completeCommand = "__complete"

  /// Whether `path` is member names separated by `.` (what `--select` accepts).
  static func isMemberPath(_ path: String) -> Bool {
    !path.isEmpty
      && path.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty }
  }

  private static func command(
    _ name: CommandName, _ arguments: [String], count: Int?, select: String?,
    filter: MonitorFilter
  ) throws(CommandLineError) -> Command {
    func feature() throws(CommandLineError) -> String {
      guard let feature = arguments.first else {
        throw CommandLineError(
          "missing FEATURE (list them with 'statectl features')", command: name)
      }
      guard !feature.isEmpty else {
        throw CommandLineError("FEATURE must not be empty", command: name)
      }
      guard arguments.count == 1 else {
        throw CommandLineError("unexpected argument '\(arguments[1])'", command: name)
      }
      return feature
    }
    func features() throws(CommandLineError) -> [String] {
      guard !arguments.isEmpty else {
        throw CommandLineError(
          "missing FEATURE (list them with 'statectl features')", command: name)
      }
      if arguments.contains("") {
        throw CommandLineError("FEATURE must not be empty", command: name)
      }
      var seen = Set<String>()
      for feature in arguments where !seen.insert(feature).inserted {
        throw CommandLineError("feature '\(feature)' is given twice", command: name)
      }
      return arguments
    }
    func none() throws(CommandLineError) {
      if let extra = arguments.first {
        throw CommandLineError("unexpected argument '\(extra)'", command: name)
      }
    }
    switch name {
    case .send where arguments.count >= 2 && arguments[1] == "-":
      guard !arguments[0].isEmpty else {
        throw CommandLineError("FEATURE must not be empty", command: .send)
      }
      guard arguments.count == 2 else {
        throw CommandLineError(
          "unexpected argument '\(arguments[2])': with '-' the whole event comes from stdin",
          command: .send)
      }
      return .sendStandardInput(feature: arguments[0])
    case .send:
      guard arguments.count >= 2 else {
        let missing = arguments.isEmpty ? "FEATURE and EVENT" : "EVENT"
        throw CommandLineError(
          "missing \(missing) (list events with 'statectl describe FEATURE')", command: .send)
      }
      guard !arguments[0].isEmpty, !arguments[1].isEmpty else {
        throw CommandLineError("FEATURE and EVENT must not be empty", command: .send)
      }
      let fields = try EventFields.parse(arguments.dropFirst(2))
      return .send(feature: arguments[0], event: arguments[1], fields: fields)
    case .get: return .get(features: try features(), select: select)
    case .watch: return .watch(features: try features(), count: count, select: select)
    case .monitor:
      if arguments.contains("") {
        throw CommandLineError("FEATURE must not be empty", command: name)
      }
      return .monitor(features: arguments, count: count, filter: filter)
    case .describe: return .describe(feature: try feature())
    case .undo: return .undo(feature: try feature())
    case .redo: return .redo(feature: try feature())
    case .features:
      try none()
      return .features
    case .ping:
      try none()
      return .ping
    case .info:
      try none()
      return .info
    case .call:
      return .call(try CallInput(arguments))
    case .socket:
      try none()
      return .socket
    case .completions:
      let shells = Shell.allCases.map(\.rawValue).joined(separator: ", ")
      guard let word = arguments.first else {
        throw CommandLineError("missing SHELL (one of \(shells))", command: .completions)
      }
      guard let shell = Shell(rawValue: word) else {
        throw CommandLineError(
          "no completions for '\(word)'; shells: \(shells)", command: .completions)
      }
      guard arguments.count == 1 else {
        throw CommandLineError("unexpected argument '\(arguments[1])'", command: .completions)
      }
      return .completions(shell)
    case .history, .goto, .replay, .exportTest:
      preconditionFailure("TimeTravelOptions.command parses '\(name.rawValue)'")
    case .help:
      guard let topic = arguments.first else { return .help(nil) }
      guard arguments.count == 1 else {
        throw CommandLineError("unexpected argument '\(arguments[1])'", command: .help)
      }
      guard let command = CommandName(rawValue: topic) else {
        throw CommandLineError("no help for '\(topic)': not a command", command: .help)
      }
      return .help(command == .help ? nil : command)
    }
  }

  /// The command within two edits of `word`, if exactly one is.
  static func suggestion(for word: String) -> CommandName? {
    let close = CommandName.allCases.filter { editDistance(word, $0.rawValue) <= 2 }
    return close.count == 1 ? close[0] : nil
  }

  private static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.utf8)
    let b = Array(b.utf8)
    var previous = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in stride(from: 1, through: b.count, by: 1) {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      }
      previous = current
    }
    return a.isEmpty ? b.count : previous[b.count]
  }
}
