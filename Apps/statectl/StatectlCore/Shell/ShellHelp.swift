import Wire

/// The interactive shell's texts. `shellSection` is also a section of `statectl --help` (and so
/// of the manual page).
extension Help {
  static let shellSection = """
    Interactive shell:
      statectl with no command, on a terminal, opens a prompt (statectl> ) taking
      the same commands without 'statectl', as redis-cli does with no arguments:
      Tab completes commands, features, events and fields (from the daemon's
      describe); Up/Down recall earlier lines, kept across sessions in
      $XDG_STATE_HOME/statectl_history (else ~/.local/state/statectl_history);
      'help' lists the keys; 'quit', 'exit' or Ctrl-D leave. The options given
      to statectl apply to every command. Without a terminal, a missing command
      is a usage error (exit status 2).
    """

  /// The line the shell opens with.
  static func shellBanner(socket: SocketPath) -> String {
    """
    statectl \(version), talking to stated at \(socket.path).
    Type commands without 'statectl' ('help' lists them); Tab completes; 'quit' or Ctrl-D leaves.

    """
  }

  /// statectl's commands, wrapped and indented (the list grows with `CommandName`).
  static var commandList: String {
    var lines: [String] = []
    var line = " "
    for name in CommandName.allCases.map(\.rawValue) {
      if line.count + name.count + 2 > 78 {
        lines.append(line)
        line = " "
      }
      line += " " + name
    }
    return (lines + [line]).joined(separator: "\n")
  }

  /// What `help` prints at the shell's prompt. `history`: the history file, if any.
  static func shell(history: String?) -> String {
    """
    Commands, as statectl's without 'statectl' ('help COMMAND' for one):
    \(commandList)
      quit, exit, Ctrl-D    leave the shell
    Words are split at spaces; quote a value that holds one: term="text editor".

    Keys:
      Tab                   complete a command, feature, event or field
      Up, Down (Ctrl-P, N)  earlier and later lines\(history.map { ", kept in \($0)" } ?? "")
      Left, Right           move (also Ctrl-B, Ctrl-F)
      Home, End             start and end of the line (also Ctrl-A, Ctrl-E)
      Backspace, Delete     delete before or under the cursor
      Ctrl-U, Ctrl-K        delete to the start or to the end of the line
      Ctrl-W                delete the word before the cursor
      Ctrl-L                clear the screen
      Ctrl-C                abandon the line; stop a running watch or monitor

    """
  }
}
