import Wire

extension Invocation {
  /// The command `name` with its positional `arguments` checked, carrying the options that
  /// belong to it (`count`, `select`, `filter`).
  static func command(
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
}
