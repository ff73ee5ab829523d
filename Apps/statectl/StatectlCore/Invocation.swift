import Wire

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
}
