/// The options and commands of time travel (issue 20): `history`, `goto`, `monitor --diff`
/// and `--record`, `replay`, `export-test`. Kept apart from `Invocation`'s general parsing.
public struct TimeTravelOptions: Equatable, Sendable {
  /// `monitor --diff`: each event's changes, one line each, instead of a summary.
  public var diff = false
  /// `monitor --record FILE`: also write the session to FILE.
  public var record: String?
  /// `history --last N`.
  public var last: Int?
  /// `history --since SEQ`.
  public var since: UInt64?
  /// `replay --feature F` (repeatable) and `export-test --feature F`.
  public var features: [String] = []
  /// `replay --skip-effects`.
  public var skipEffects = false
  /// `export-test --name NAME`.
  public var name: String?
  /// `export-test -o PATH`.
  public var output: String?

  public init() {}

  /// Takes the option `name` when it is one of these; false when it is not. `value` reads the
  /// option's value, `flag` checks that none was attached.
  mutating func take(
    _ name: String, command: CommandName?,
    value: (String) throws(CommandLineError) -> String,
    flag: () throws(CommandLineError) -> Void
  ) throws(CommandLineError) -> Bool {
    switch name {
    case "--diff":
      try flag()
      diff = true
    case "--record":
      record = try nonEmpty(name, value("a file to write"), command: command ?? .monitor)
    case "--last":
      let text = try value("a number of transitions")
      guard let number = Int(text), number > 0 else {
        throw CommandLineError(
          "option --last needs a positive whole number, got '\(text)'",
          command: command ?? .history)
      }
      last = number
    case "--since":
      since = try Self.sequence(try value("a seq"), what: "option --since", command: .history)
    case "--feature":
      let feature = try nonEmpty(name, value("a feature"), command: command ?? .replay)
      if features.contains(feature) {
        throw CommandLineError("feature '\(feature)' is given twice", command: command)
      }
      features.append(feature)
    case "--skip-effects":
      try flag()
      skipEffects = true
    case "--name":
      let text = try value("a Swift type name")
      guard TestExport.isTypeName(text) else {
        throw CommandLineError(
          "option --name needs a Swift type name (a letter or '_', then letters, digits or '_'), got '\(text)'",
          command: .exportTest)
      }
      self.name = text
    case "-o", "--output":
      output = try nonEmpty(name, value("a file to write"), command: command ?? .exportTest)
    default:
      return false
    }
    return true
  }

  private func nonEmpty(
    _ name: String, _ text: String, command: CommandName?
  ) throws(CommandLineError) -> String {
    guard !text.isEmpty else {
      throw CommandLineError("option \(name) needs a non-empty value", command: command)
    }
    return text
  }

  /// A seq as the protocol has them: a whole number, 0 or more.
  static func sequence(
    _ text: String, what: String, command: CommandName
  ) throws(CommandLineError) -> UInt64 {
    guard let number = UInt64(text) else {
      throw CommandLineError(
        "\(what) needs a seq, a whole number 0 or more (see 'statectl history FEATURE'), got '\(text)'",
        command: command)
    }
    return number
  }

  /// Refuses an option given to a command it does not belong to.
  func check(for command: CommandName) throws(CommandLineError) {
    func only(_ given: Bool, _ option: String, _ owners: [CommandName]) throws(CommandLineError) {
      guard given, !owners.contains(command) else { return }
      let names = owners.map { "'\($0.rawValue)'" }.joined(separator: " and ")
      throw CommandLineError("option \(option) is only for \(names)", command: command)
    }
    try only(diff, "--diff", [.monitor])
    try only(record != nil, "--record", [.monitor])
    try only(last != nil, "--last", [.history])
    try only(since != nil, "--since", [.history])
    try only(!features.isEmpty, "--feature", [.replay, .exportTest])
    try only(skipEffects, "--skip-effects", [.replay])
    try only(name != nil, "--name", [.exportTest])
    try only(output != nil, "--output", [.exportTest])
    if last != nil && since != nil {
      throw CommandLineError("give --last or --since, not both", command: .history)
    }
    if command == .exportTest && features.count > 1 {
      throw CommandLineError(
        "export-test writes one feature's test: give one --feature", command: command)
    }
  }

  /// The time-travel command `name` with its `arguments`; nil for any other command.
  func command(_ name: CommandName, _ arguments: [String]) throws(CommandLineError) -> Command? {
    func extra(after count: Int) throws(CommandLineError) {
      if arguments.count > count {
        throw CommandLineError("unexpected argument '\(arguments[count])'", command: name)
      }
    }
    func feature() throws(CommandLineError) -> String {
      guard let feature = arguments.first, !feature.isEmpty else {
        throw CommandLineError(
          "missing FEATURE (list them with 'statectl features')", command: name)
      }
      return feature
    }
    func file() throws(CommandLineError) -> String {
      guard let file = arguments.first, !file.isEmpty else {
        throw CommandLineError(
          "missing FILE (a recording: statectl monitor --record FILE)", command: name)
      }
      return file
    }
    switch name {
    case .history:
      let feature = try feature()
      try extra(after: 1)
      return .history(feature: feature, last: last, since: since)
    case .goto:
      let feature = try feature()
      guard arguments.count >= 2 else {
        throw CommandLineError(
          "missing SEQ (the seqs retained are listed by 'statectl history \(feature)')",
          command: name)
      }
      let seq = try Self.sequence(arguments[1], what: "SEQ", command: .goto)
      try extra(after: 2)
      return .goto(feature: feature, seq: seq)
    case .replay:
      let file = try file()
      try extra(after: 1)
      return .replay(file: file, features: features, skipEffects: skipEffects)
    case .exportTest:
      let file = try file()
      try extra(after: 1)
      guard let feature = features.first else {
        throw CommandLineError(
          "missing --feature F: which recorded feature the test is for", command: name)
      }
      return .exportTest(file: file, feature: feature, name: self.name, output: output)
    default:
      return nil
    }
  }
}
