/// The exit statuses of `statectl`, as documented in `statectl --help`.
///
/// Scripts can tell apart what to fix: the request (1), the command line (2),
/// or the daemon itself (3 and 4).
public enum ExitStatus: Int32, Sendable, CaseIterable {
  /// The request succeeded (for `watch`: stopped by `--count`, SIGINT or SIGTERM).
  case success = 0
  /// The daemon answered with an error: unknown feature or event, invalid field,
  /// the event failed, nothing to undo… Its message goes to stderr.
  case refused = 1
  /// The command line is wrong: unknown command or option, missing argument,
  /// a `field:=json` argument that is not JSON.
  case usage = 2
  /// No daemon to talk to: no socket file, a stale socket (connection refused),
  /// permission denied, or an unusable socket path.
  case unreachable = 3
  /// Connected, but the conversation failed: the daemon closed the connection,
  /// did not answer in time, or sent something that is not the protocol it speaks.
  case connectionFailed = 4
}
