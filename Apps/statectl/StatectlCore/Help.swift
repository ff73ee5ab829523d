import Wire

/// The help texts, printed by `statectl help [COMMAND]`, `statectl --help` and
/// `statectl COMMAND --help`.
public enum Help {
  public static let version = "0.1.0"

  static let exitStatuses = """
    Exit status:
      0  success (watch, monitor: also when stopped by --count, Ctrl-C/SIGINT
         or SIGTERM)
      1  the daemon refused the request (unknown feature or event, invalid field,
         the event failed, no undo history...); its message is printed on stderr
      2  usage error: unknown command or option, missing argument, bad field:=json
      3  the daemon is unreachable: no socket file, a stale socket (connection
         refused: no daemon listening), permission denied, or an invalid socket path
      4  connected, but the daemon closed the connection, did not answer within
         --timeout, or sent a reply that is not protocol v\(ProtocolInfo.version)
    """

  /// The general help. `socket` is the path that would be used now.
  public static func general(socket: SocketPath) -> String {
    """
    statectl \(version): talk to the stated daemon (protocol v\(ProtocolInfo.version)).
    statectl knows no feature itself; everything comes from the daemon.

    Usage: statectl [OPTIONS] COMMAND [ARGUMENTS]
           statectl [OPTIONS]    (on a terminal: the interactive shell, see below)

    Commands:
      send FEATURE EVENT [FIELD=TEXT | FIELD:=JSON ...]
                         send an event; print the new state
      send FEATURE -     send the event read from stdin as JSON ({"type": ...})
      get FEATURE...     print the current state of one or more features;
                         --select PATH prints only that part of it
      watch FEATURE...   print each new state until interrupted (or --count N);
                         --select PATH prints only changes of that part of the state
      monitor [FEATURE...]
                         print every event the daemon handles, with its outcome and
                         the state before and after (all features when none is given;
                         --event TYPE and --outcome OUTCOME filter them)
      features           list the features the daemon serves
      describe FEATURE   list a feature's events, their fields, and its state
      undo FEATURE       step a feature's state back
      redo FEATURE       step it forward again
      history FEATURE    list a feature's recorded changes (--last N, --since SEQ),
                         each with what changed
      goto FEATURE SEQ   set a feature to its state right after change SEQ
      replay FILE        replay a recording (monitor --record) and compare every
                         outcome and state with it
      export-test FILE --feature F
                         write a Swift test (BlocTest) that replays a recording
      ping               check that the daemon answers; print its version
      info               the daemon's state: version, uptime, pid, socket, clients,
                         counts, each feature's seq and size, the journal
      call REQUEST|-     send raw JSON requests (one, or NDJSON lines from stdin);
                         print the replies
      socket             print the socket path statectl would use
      completions SHELL  print the completion script for bash, zsh or fish
      help [COMMAND]     show help for a command (or: statectl COMMAND --help)

    Options (before or after the command):
      --socket PATH      the daemon's socket; default $STATED_SOCKET if set, else
                         $XDG_RUNTIME_DIR/stated/stated.sock, else /tmp/stated-<uid>/stated.sock
                         (now: \(socket.path))
      --json             one JSON object per line (the default when stdout is not a
                         terminal); errors too: one JSON object on stderr,
                         {"ok":false,"status":N,"error":{"code":...,"message":...}},
                         and the same exit status N
      --human            readable text and errors even when stdout is not a terminal
      --timeout SECONDS  wait at most this long to connect and for each reply
                         (default 10; 0 waits forever; watch waits forever for new states)
      -r, --repeat N     run the command N times (-1: until interrupted), like redis-cli
      -i, --interval SECONDS
                         pause this long between runs (alone: repeat until interrupted)
      -h, --help         show help
      -V, --version      print statectl's version

    \(shellSection)

    Examples:
      statectl ping
      statectl features
      statectl describe counter
      statectl send counter increment
      statectl send counter set value:=42
      statectl watch counter | jq .state.count
      statectl watch counter settings
      statectl watch search --select marks
      statectl monitor --diff
      statectl monitor --outcome failed
      statectl history counter --last 20
      statectl goto counter 42
      statectl monitor --record session.ndjson counter settings
      statectl replay session.ndjson
      statectl info
      statectl call '{"op":"get","feature":"counter"}'
      statectl -r 5 -i 1 get counter
      source <(statectl completions bash)
      statectl           (on a terminal: the interactive shell)

    Environment:
      STATED_SOCKET      the daemon's socket, unless --socket is given
      XDG_RUNTIME_DIR    where the default socket lives (see --socket)
      XDG_STATE_HOME     where the interactive shell keeps its history

    \(exitStatuses)
    """
  }

  /// The help of one command.
  public static func command(_ name: CommandName) -> String {
    body(of: name)
      + "\n\nOptions: --socket PATH, --json, --human, --timeout SECONDS"
      + (Repetition.commands.contains(name) ? ", -r N, -i SECONDS" : "")
      + " (see 'statectl --help').\n\n"
      + exitStatuses
  }
}
