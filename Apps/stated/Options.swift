import BlocCore
import Glibc
import StateServer

/// The command line of `stated`.
struct Options {
  var socketPath: String?
  var stateDirectory: String?
  var maxFrameBytes = 1 << 20
  var logLevel = Logger.Level.info
  var sync = FileStorage.SyncPolicy.always
  var historyLimit = 1000
  var showHelp = false
  var showVersion = false

  static let minimumFrameBytes = 64
  static let maximumHistoryLimit = 1_000_000
  static let maximumFrameBytes = 1 << 30

  struct OptionError: Error {
    let message: String
  }

  /// The environment variable naming the socket when `--socket` is not given; statectl and
  /// Scripts/stated_client.py read it too.
  static let socketVariable = "STATED_SOCKET"

  /// Parses `arguments` (without the program name). Accepts `--name value` and `--name=value`.
  /// Without `--socket`, a non-empty `$STATED_SOCKET` (looked up in `environment`) is the socket.
  static func parse(
    _ arguments: [String],
    environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }
  ) throws(OptionError) -> Options {
    var options = Options()

    var index = 0
    func value(_ name: String, inline: String?) throws(OptionError) -> String {
      if let inline { return inline }
      index += 1
      guard index < arguments.count else {
        throw OptionError(message: "option '\(name)' needs a value")
      }
      return arguments[index]
    }
    while index < arguments.count {
      let argument = arguments[index]
      var name = argument
      var inline: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inline = String(argument[argument.index(after: equals)...])
      }
      switch name {
      case "-h", "--help":
        options.showHelp = true
      case "-V", "--version":
        options.showVersion = true
      case "--socket":
        let path = try value(name, inline: inline)
        guard !path.isEmpty else { throw OptionError(message: "--socket needs a non-empty path") }
        options.socketPath = path
      case "--state-dir":
        let path = try value(name, inline: inline)
        guard !path.isEmpty else {
          throw OptionError(message: "--state-dir needs a non-empty path")
        }
        options.stateDirectory = path
      case "--max-frame-bytes":
        let text = try value(name, inline: inline)
        guard let bytes = Int(text), bytes >= minimumFrameBytes, bytes <= maximumFrameBytes else {
          throw OptionError(
            message:
              "--max-frame-bytes must be an integer from \(minimumFrameBytes) to \(maximumFrameBytes), got '\(text)'"
          )
        }
        options.maxFrameBytes = bytes
      case "--sync":
        let text = try value(name, inline: inline)
        guard let policy = FileStorage.SyncPolicy(rawValue: text) else {
          throw OptionError(message: "--sync must be always or deferred; got '\(text)'")
        }
        options.sync = policy
      case "--history-limit":
        let text = try value(name, inline: inline)
        guard let limit = Int(text), limit >= 1, limit <= maximumHistoryLimit else {
          throw OptionError(
            message:
              "--history-limit must be an integer from 1 to \(maximumHistoryLimit), got '\(text)'")
        }
        options.historyLimit = limit
      case "--log-level":
        let text = try value(name, inline: inline)
        guard let level = Logger.Level(name: text) else {
          throw OptionError(
            message: "--log-level must be one of error, warning, info, debug; got '\(text)'")
        }
        options.logLevel = level
      default:
        if argument.hasPrefix("-") {
          throw OptionError(message: "unknown option '\(argument)'")
        }
        throw OptionError(message: "unexpected argument '\(argument)'; stated takes only options")
      }
      index += 1
    }
    if options.socketPath == nil, let path = environment(socketVariable), !path.isEmpty {
      options.socketPath = path
    }
    return options
  }

  static let help = """
    stated — the state daemon: hosts feature blocs (counter, settings, search) and serves them
    to local clients over a Unix domain socket, one JSON request per line (see PROTOCOL.md).

    USAGE
      stated [--socket PATH] [--state-dir PATH] [--sync always|deferred]
             [--history-limit N] [--max-frame-bytes N] [--log-level LEVEL]
      stated --help | --version

    It runs in the foreground (as systemd expects) and logs to standard error.

    OPTIONS
      --socket PATH          Where to listen. Default: $STATED_SOCKET if set, else
                             $XDG_RUNTIME_DIR/stated/stated.sock, else
                             /tmp/stated-<uid>/stated.sock (a 0700 directory that must
                             belong to you). The socket is mode 0600; only your own uid
                             may connect. 'statectl socket' prints the path in use.
      --state-dir PATH       Where feature state is stored (one journal for all features).
                             Default: $XDG_STATE_HOME/stated, else ~/.local/state/stated.
                             A damaged journal end (a crash mid-write) is cut off and kept
                             as journal.<N>.log.corrupt-1. On a full disk stated starts all
                             the same: it serves reads and refuses changes (storage_failed)
                             until there is room to keep those bytes, which stay untouched.
      --sync POLICY          When the state journal is forced to the disk. always (default):
                             every batch of changes is synced before its replies.
                             deferred: each change is still written before its reply (it
                             survives the daemon being killed), and stated syncs within a
                             second and at shutdown, like Redis' appendfsync everysec: a
                             machine crash may lose the last second.
      --history-limit N      How many changes of each stored feature are retained for the
                             history and goto ops (default 1000, at most 1000000), across
                             restarts and journal compaction; older ones are forgotten.
                             Each change is stored as a journal record of its own.
      --max-frame-bytes N    Longest request line accepted (default 1048576). A longer line
                             gets a frame_too_large error and the connection is closed.
      --log-level LEVEL      error, warning, info (default) or debug (every event and change).
      -h, --help             Show this help.
      -V, --version          Print the version.

    EXAMPLES
      stated                                   # default paths, restores saved state
      stated --socket /tmp/s.sock --state-dir /tmp/state --log-level debug
      echo '{"id":1,"op":"ping"}' | socat - UNIX-CONNECT:"$(statectl socket)"
      printf '%s\\n' '{"op":"send","feature":"counter","event":{"type":"increment"}}' \\
        | nc -NU "$(statectl socket)"

    SIGNALS
      SIGTERM, SIGINT        Graceful stop: stop accepting, finish events in flight and answer
                             them, store every state, remove the socket, exit 0.

    SYSTEMD
      Socket activation (LISTEN_FDS) is honoured: the passed socket is used as is. When
      NOTIFY_SOCKET is set (Type=notify), stated sends READY=1 there once it serves.
      Scripts/install installs the user units stated.socket and stated.service:
        systemctl --user enable --now stated.socket

    ENVIRONMENT
      STATED_SOCKET          The socket path when --socket is not given.
      XDG_RUNTIME_DIR        Where the default socket lives.
      XDG_STATE_HOME, HOME   Where the default state directory lives.
      NOTIFY_SOCKET, LISTEN_FDS, LISTEN_PID
                             Set by systemd (see SYSTEMD).

    EXIT STATUS
      0   stopped by SIGTERM/SIGINT after a clean shutdown
      64  bad command line (EX_USAGE)
      69  another stated already serves this socket or state directory (EX_UNAVAILABLE)
      71  the socket could not be set up (EX_OSERR)
      73  the state directory could not be created or used (EX_CANTCREAT)
    """
}
