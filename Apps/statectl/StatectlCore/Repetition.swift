import Glibc
import SystemCalls

/// `-r N` and `-i SECONDS`, as in redis-cli: the command runs N times (nil: until interrupted),
/// with a pause of `interval` between runs. Each run is a whole command: its own connection,
/// its own output, its own error. The exit status is that of the last failed run, 0 when every
/// run succeeded.
///
/// ```sh
/// statectl -r 3 send counter increment      # three increments
/// statectl -i 1 get counter                 # the count every second until Ctrl-C
/// ```
public struct Repetition: Equatable, Sendable {
  /// How many runs; nil repeats until interrupted.
  public var count: Int?
  public var interval: Duration

  public init(count: Int?, interval: Duration) {
    self.count = count
    self.interval = interval
  }

  /// The commands that send requests and end by themselves (not watch or monitor, which
  /// do not end; not `call -`, whose stdin is read once).
  static let commands: Set<CommandName> = [
    .send, .get, .features, .describe, .undo, .redo, .history, .goto, .ping, .info, .call,
  ]

  /// Runs `body` as many times as asked, pausing in between; returns the last failure's
  /// status, or success.
  func run(_ body: () -> ExitStatus) -> ExitStatus {
    var status = ExitStatus.success
    var done = 0
    while count.map({ done < $0 }) ?? true {
      if done > 0 { Self.sleep(interval) }
      let result = body()
      if result != .success { status = result }
      done += 1
    }
    return status
  }

  private static func sleep(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    guard seconds > 0 || attoseconds > 0 else { return }
    var pause = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    // Interrupted, nanosleep(2) leaves what is left of the pause in `pause`: the retry sleeps that.
    withUnsafeMutablePointer(to: &pause) { pause in
      _ = retryingOnInterrupt { nanosleep(pause, pause) }
    }
  }
}
