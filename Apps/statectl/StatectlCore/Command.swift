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
