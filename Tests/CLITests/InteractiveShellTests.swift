import Foundation
import Glibc
import StatectlCore
import Testing

/// `statectl` with no command on a terminal: the interactive shell, driven through a real
/// pseudo-terminal against a real daemon, as a person types at it.
@Suite(.serialized) struct InteractiveShellTests {
  static let prompt = "statectl> "
  static let up = "\u{1B}[A"

  /// The shell on a new pseudo-terminal, talking to `daemon`, its history under `state`.
  static func shell(_ daemon: StatedProcess, state: String) throws -> PseudoTerminalProcess {
    var environment = ProcessInfo.processInfo.environment
    environment["STATED_SOCKET"] = daemon.socketPath
    environment["XDG_STATE_HOME"] = state
    environment["TERM"] = "xterm"
    return try PseudoTerminalProcess(Binaries.statectl, [], environment: environment)
  }

  @Test func commandsCompletionAndHistoryAcrossSessions() async throws {
    let daemon = try await StatedProcess()
    let home = try TemporaryTree()
    let state = home.path + "/state"  // missing: the shell creates it for its history

    let first = try Self.shell(daemon, state: state)
    try await first.expect("talking to stated at \(daemon.socketPath)")
    try await first.expect(Self.prompt)
    first.type("send counter increment\r")
    try await first.expect("count: 1")
    try await first.expect(Self.prompt)

    // Tab completes the feature, and the command runs.
    first.type("get cou\t")
    try await first.expect(Self.prompt + "get counter ")
    first.type("\r")
    try await first.expect("count: 1")
    try await first.expect(Self.prompt)

    // Several candidates: Tab lists them under the line.
    first.type("send counter \t")
    let listed = try await first.expect("decrement")
    #expect(listed.contains("increment"))
    first.type("\u{15}")  // Ctrl-U: the line is emptied
    try await first.expect(Self.prompt)

    // Up twice recalls the send, before the get.
    first.type(Self.up + Self.up)
    try await first.expect(Self.prompt + "send counter increment")
    first.type("\r")
    try await first.expect("count: 2")
    try await first.expect(Self.prompt)
    first.type("quit\r")
    #expect(try await first.waitForExit() == 0)

    let history = try String(contentsOfFile: state + "/statectl_history", encoding: .utf8)
    #expect(history == "send counter increment\nget counter\nsend counter increment\nquit\n")

    // A new session recalls the last one's lines.
    let second = try Self.shell(daemon, state: state)
    try await second.expect(Self.prompt)
    second.type(Self.up + Self.up)
    try await second.expect(Self.prompt + "send counter increment")
    second.type("\r")
    try await second.expect("count: 3")
    try await second.expect(Self.prompt)
    second.type("\u{04}")  // Ctrl-D at an empty line leaves
    #expect(try await second.waitForExit() == 0)
  }

  @Test func lineEditingKeys() async throws {
    let daemon = try await StatedProcess()
    let home = try TemporaryTree()
    let shell = try Self.shell(daemon, state: home.path)
    try await shell.expect(Self.prompt)

    // "sedn": Ctrl-A, Right, Right, Delete removes the 'd', Right, 'd' restores the word.
    shell.type("sedn counter increment\u{01}\u{1B}[C\u{1B}[C\u{1B}[3~\u{1B}[Cd\r")
    try await shell.expect("count: 1")
    try await shell.expect(Self.prompt)

    // Ctrl-W deletes a word, Backspace the character before the cursor, Home/End and Ctrl-E
    // move, and Left moves back over the last 'r', where another is typed: "get counterr".
    shell.type("get nonsense\u{17}counterX\u{7F}\u{1B}[H\u{1B}[F\u{1B}[Dr\u{1B}[F\u{05}\r")
    try await shell.expect("'counterr'")
    try await shell.expect(Self.prompt)

    // Ctrl-C abandons a line; Ctrl-K deletes to its end.
    shell.type("send counter reset\u{03}")
    try await shell.expect("^C")
    let left = "\u{1B}[D"
    shell.type(
      "get counter trailing" + String(repeating: left, count: " trailing".count) + "\u{0B}\r")
    try await shell.expect("count: 1")
    try await shell.expect(Self.prompt)

    shell.type("help\r")
    try await shell.expect("Ctrl-W")
    try await shell.expect(Self.prompt)
    shell.type("exit\r")
    #expect(try await shell.waitForExit() == 0)
  }

  @Test func mistakesAreReportedAndTheShellGoesOn() async throws {
    let daemon = try await StatedProcess()
    let home = try TemporaryTree()
    let shell = try Self.shell(daemon, state: home.path)
    try await shell.expect(Self.prompt)
    shell.type("sned counter\r")
    try await shell.expect("unknown command 'sned' (did you mean 'send'?)")
    try await shell.expect(Self.prompt)
    shell.type("send search search term=\"text editor\r")
    try await shell.expect("unterminated \" quote")
    try await shell.expect(Self.prompt)
    shell.type("--json\r")
    try await shell.expect("missing command; 'help' lists them")
    try await shell.expect(Self.prompt)
    // 'statectl' typed out of habit is skipped; options given to the shell apply.
    shell.type("statectl get counter --json\r")
    try await shell.expect(#"{"state":{"count":0}"#)
    try await shell.expect(Self.prompt)
    shell.type("\u{04}")
    #expect(try await shell.waitForExit() == 0)
  }

  /// Without a terminal nothing changes: a missing command is a usage error.
  @Test func withoutATerminalAMissingCommandIsAUsageError() async throws {
    let result = try await statectl([])
    #expect(result.status == 2)
    #expect(result.standardError.contains(#""message":"missing command""#))
    #expect(result.standardOutput == "")
  }
}
