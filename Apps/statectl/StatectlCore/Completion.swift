import Wire

/// The candidates for one word of a `statectl` command line, for the shell completions
/// (`statectl __complete WORDS…`, the last word being the one completed).
///
/// Commands and options are always known. Features, event types and field names come from the
/// running daemon's `features` and `describe` (asked with a short timeout), else from
/// `StaticCatalog`, the features `stated` ships with. A field is offered as `name=` when its type
/// is a string, else `name:=`, following the command line's convention; once written, `name=`
/// is completed with the values `describe` lists for it (`key=` offers the settings' keys), and
/// `value=` beside `key=K` with the values the state's member K lists (`searchBackend`'s).
/// `--outcome` offers the outcomes, `--event` the event types of the features monitored.
///
/// ```swift
/// Completion(environment: { _ in nil }, uid: 1000).candidates(["send", "cou"])  // ["counter"]
/// ```
public struct Completion {
  public var environment: (String) -> String?
  public var uid: UInt32
  /// How long to wait for the daemon: a completion must not hang the shell.
  public var timeout: Duration = .milliseconds(500)

  public init(environment: @escaping (String) -> String?, uid: UInt32) {
    self.environment = environment
    self.uid = uid
  }

  /// Options that take a value, with the command they belong to (nil: every command).
  static let valueOptions: [(name: String, command: CommandName?)] = [
    ("--socket", nil), ("-s", nil), ("--timeout", nil), ("--count", .watch), ("-n", .watch),
    ("--select", .watch), ("--record", .monitor), ("--last", .history), ("--since", .history),
    ("--feature", .replay), ("--name", .exportTest), ("-o", .exportTest), ("--output", .exportTest),
    ("--event", .monitor), ("--outcome", .monitor), ("-r", nil), ("--repeat", nil), ("-i", nil),
    ("--interval", nil),
  ]
  static let globalOptions = ["--socket", "--json", "--human", "--timeout", "--help", "--version"]
  /// The options of the time-travel commands, by command.
  static let timeTravelOptions: [String: [String]] = [
    CommandName.monitor.rawValue: ["--diff", "--record"],
    CommandName.history.rawValue: ["--last", "--since"],
    CommandName.replay.rawValue: ["--feature", "--skip-effects"],
    CommandName.exportTest.rawValue: ["--feature", "--name", "--output"],
  ]

  public func candidates(_ words: [String]) -> [String] {
    let current = words.last ?? ""
    var positionals: [String] = []
    var socketOption: String?
    var index = 0
    let before = words.dropLast()
    while index < before.count {
      let word = before[before.startIndex + index]
      if Self.valueOptions.contains(where: { $0.name == word }) {
        if (word == "--socket" || word == "-s") && index + 1 < before.count {
          socketOption = before[before.startIndex + index + 1]
        }
        index += 2
        continue
      }
      if word.hasPrefix("--socket=") { socketOption = String(word.dropFirst("--socket=".count)) }
      if !word.hasPrefix("-") { positionals.append(word) }
      index += 1
    }
    let command = positionals.first.flatMap(CommandName.init(rawValue:))
    let arguments = Array(positionals.dropFirst())
    let socket = SocketPath.resolve(option: socketOption, environment: environment, uid: uid)
    let catalog = Catalog(socket: socket.path, timeout: timeout)
    // The value of an option: the outcomes and event types a monitor filters on, --feature's
    // features; nothing for the others (the shell completes file names for --socket and the
    // files of the time-travel options).
    if let previous = before.last, Self.valueOptions.contains(where: { $0.name == previous }) {
      switch previous {
      case "--feature": return catalog.features().filter { $0.hasPrefix(current) }
      case "--outcome": return MonitorFilter.outcomes.filter { $0.hasPrefix(current) }
      case "--event":
        let features = arguments.isEmpty ? catalog.features() : arguments
        var types: [String] = []
        for feature in features {
          for type in catalog.events(of: feature) where !types.contains(type) { types.append(type) }
        }
        return types.filter { $0.hasPrefix(current) }
      default: return []
      }
    }
    if current.hasPrefix("-") {
      var options = Self.globalOptions
      if command == .watch || command == .monitor { options.append("--count") }
      if command == .watch || command == .get { options.append("--select") }
      if command == .monitor { options += ["--event", "--outcome"] }
      options += Self.timeTravelOptions[command.map(\.rawValue) ?? ""] ?? []
      if let command, Repetition.commands.contains(command) {
        options += ["--repeat", "--interval"]
      }
      return options.filter { $0.hasPrefix(current) }
    }
    // A word holding '=' is a field's value: the values the field lists, if any.
    if current.contains("=") {
      guard command == .send, arguments.count >= 2 else { return [] }
      let listed = Self.values(of: current, catalog.fields(of: arguments[0], event: arguments[1]))
      guard listed.isEmpty, current.hasPrefix("value="),
        let key = arguments.dropFirst(2).first(where: { $0.hasPrefix("key=") })?.dropFirst(4)
      else { return listed }
      // `key=K value=…` (settings' set): the values the state's member K lists.
      let values = catalog.stateValues(of: arguments[0])[String(key)] ?? []
      return values.map { "value=" + $0 }.filter { $0.hasPrefix(current) }
    }
    guard let command else {
      return CommandName.allCases.map(\.rawValue).filter { $0.hasPrefix(current) }
    }
    let words: [String]
    switch command {
    case .send:
      switch arguments.count {
      case 0: words = catalog.features()
      case 1: words = catalog.events(of: arguments[0])
      default:
        let given = Set(
          arguments.dropFirst(2).compactMap { $0.split(separator: "=").first }.map {
            $0.hasSuffix(":") ? String($0.dropLast()) : String($0)
          })
        words = catalog.fields(of: arguments[0], event: arguments[1])
          .filter { !given.contains($0.name) }
          .map { $0.name + ($0.isText ? "=" : ":=") }
      }
    case .get, .watch, .monitor:
      words = catalog.features().filter { !arguments.contains($0) }
    case .describe, .undo, .redo, .history, .goto:
      words = arguments.isEmpty ? catalog.features() : []
    case .replay, .exportTest:
      // FILE: the shell completes file names.
      words = []
    case .help:
      words = arguments.isEmpty ? CommandName.allCases.map(\.rawValue) : []
    case .completions:
      words = arguments.isEmpty ? Shell.allCases.map(\.rawValue) : []
    case .features, .ping, .socket, .info, .call:
      words = []
    }
    return words.filter { $0.hasPrefix(current) }
  }

  /// `name=value` for each value `name` lists that starts as `word` (`name=…`) does.
  static func values(of word: String, _ fields: [Catalog.Field]) -> [String] {
    guard let equals = word.firstIndex(of: "="), word[..<equals].last != ":" else { return [] }
    let name = String(word[..<equals])
    guard let field = fields.first(where: { $0.name == name }) else { return [] }
    return field.values.map { "\(name)=\($0)" }.filter { $0.hasPrefix(word) }
  }
}

/// Feature names, events and fields: the daemon's, or the shipped ones when it does not answer.
struct Catalog {
  let socket: String
  let timeout: Duration

  struct Field: Equatable {
    var name: String
    /// A string field: written `name=text`.
    var isText: Bool
    /// The values it accepts, when they are a list (`values` in `describe`).
    var values: [String] = []
  }

  func features() -> [String] {
    guard let reply = ask(Request.Op.features, [:]) else { return StaticCatalog.features }
    return (reply["features"]?.arrayValue ?? []).compactMap {
      $0.stringValue ?? $0["name"]?.stringValue
    }
  }

  func events(of feature: String) -> [String] {
    guard let reply = describe(feature) else {
      return StaticCatalog.events[feature]?.map(\.type) ?? []
    }
    return (reply["events"]?.arrayValue ?? []).compactMap {
      $0["type"]?.stringValue ?? $0["name"]?.stringValue
    }
  }

  func fields(of feature: String, event: String) -> [Field] {
    guard let reply = describe(feature) else {
      return StaticCatalog.events[feature]?.first { $0.type == event }?.fields ?? []
    }
    let described = reply["events"]?.arrayValue?.first {
      ($0["type"]?.stringValue ?? $0["name"]?.stringValue) == event
    }
    return (described?["fields"]?.arrayValue ?? []).compactMap { field in
      guard let name = field["name"]?.stringValue else { return nil }
      let type = field["type"]?.stringValue ?? field["type"]?["type"]?.stringValue
      let values = (field["values"]?.arrayValue ?? []).compactMap(\.stringValue)
      return Field(name: name, isText: type == "string", values: values)
    }
  }

  /// The members of a feature's state that list their values (`values` in `state_shape`).
  func stateValues(of feature: String) -> [String: [String]] {
    var values: [String: [String]] = [:]
    for member in describe(feature)?["state_shape"]?.arrayValue ?? [] {
      guard let name = member["name"]?.stringValue, let list = member["values"]?.arrayValue
      else { continue }
      values[name] = list.compactMap(\.stringValue)
    }
    return values
  }

  private func describe(_ feature: String) -> JSONObject? {
    ask(Request.Op.describe, ["feature": .string(feature)])
  }

  private func ask(_ op: String, _ fields: JSONObject) -> JSONObject? {
    guard let connection = try? WireConnection.connect(path: socket, timeout: timeout) else {
      return nil
    }
    defer { connection.close() }
    guard let reply = try? connection.call(Request(id: 1, op: op, fields: fields)), reply.ok
    else { return nil }
    return reply.fields
  }
}

/// The features `stated` ships with, for completions when no daemon answers.
enum StaticCatalog {
  struct Event {
    var type: String
    var fields: [Catalog.Field] = []
  }

  static let features = ["counter", "settings", "search"]
  static let settingKeys = [
    "searchBackend", "searchCountry", "searchLimit", "searchThrottleMs", "counterStep",
    "counterMinimum", "counterMaximum",
  ]
  static let events: [String: [Event]] = [
    "counter": [
      Event(type: "increment"), Event(type: "decrement"), Event(type: "reset"),
      Event(type: "set", fields: [.init(name: "value", isText: false)]),
    ],
    "settings": [
      Event(
        type: "set",
        fields: [
          .init(name: "key", isText: true, values: settingKeys),
          .init(name: "value", isText: false),
        ]),
      Event(type: "reset", fields: [.init(name: "key", isText: true, values: settingKeys)]),
      Event(type: "resetAll"),
    ],
    "search": [
      Event(type: "search", fields: [.init(name: "term", isText: true)]),
      Event(type: "toggleMark", fields: [.init(name: "id", isText: false)]),
      Event(type: "clear"),
    ],
  ]
}
