/// `statectl` with no command on a terminal, as `redis-cli` with no arguments: a prompt taking
/// the same commands without the `statectl` prefix, with line editing, Tab completion from the
/// daemon's `describe`, and history across sessions (`ShellHistory`). `help` lists the
/// commands; `quit`, `exit` or Ctrl-D at an empty line leave.
///
/// Each command runs as its own `statectl` process with the shell's options before its own
/// (`CommandProcess`), so it behaves and prints exactly as on the command line, and Ctrl-C stops
/// it without ending the shell.
public struct InteractiveShell {
  /// The options `statectl` was started with, given to every command (`--socket PATH`…).
  public var options: [String]
  public var environment: (String) -> String?
  public var uid: UInt32

  static let prompt = "statectl> "

  public init(options: [String], environment: @escaping (String) -> String?, uid: UInt32) {
    self.options = options
    self.environment = environment
    self.uid = uid
  }

  /// Runs until the user leaves; the status is 0 then, 2 when standard input is no terminal.
  public func run(socket: SocketPath) -> ExitStatus {
    guard let terminal = Terminal() else {
      writeError("statectl: the interactive shell needs a terminal on standard input\n")
      return .usage
    }
    CommandProcess.shieldShell()
    var history = ShellHistory(path: ShellHistory.defaultPath(environment: environment))
    let reader = LineReader(
      terminal: terminal, prompt: Self.prompt,
      completion: ShellCompletion(options: options, environment: environment, uid: uid))
    terminal.write(Help.shellBanner(socket: socket))
    while let line = reader.readLine(history: &history) {
      history.add(line)
      if !execute(line, terminal: terminal, history: history) { break }
    }
    return .success
  }

  /// Runs one line; false when it asks to leave.
  func execute(_ line: String, terminal: Terminal, history: ShellHistory) -> Bool {
    var words: [String]
    do {
      words = try ShellWords.split(line)
    } catch {
      terminal.write("statectl: unterminated \(error.quote) quote\n")
      return true
    }
    if words.first == "statectl" { words.removeFirst() }
    switch words {
    case []:
      return true
    case ["quit"], ["exit"]:
      return false
    case ["help"]:
      terminal.write(Help.shell(history: history.path))
      return true
    default:
      break
    }
    // Options alone would open a shell inside the shell. Other usage errors are reported by
    // the command's own process, as on the command line.
    do {
      _ = try Invocation(parsing: options + words)
    } catch {
      if error.optionsWithoutCommand != nil {
        terminal.write("statectl: missing command; 'help' lists them\n")
        return true
      }
    }
    let status = CommandProcess.run(options + words)
    // A command ended by a signal may have left its line unfinished.
    if status > 128 { terminal.write("\n") }
    return true
  }

  private func writeError(_ text: String) {
    StandardConsole().err(text)
  }
}
