import Glibc
import SystemCalls

/// Leveled logging to standard error, one line per message: `<label>: <level>: <message>`, the
/// label being the program's name unless given.
///
/// Made for a foreground daemon under systemd, which timestamps each line itself. Writes are
/// single `write(2)` calls, so lines from different threads never interleave.
///
/// ```swift
/// let log = Logger(label: "stated", level: .info)
/// log.info("listening on \(path)")
/// log.debug("event \(event)")  // the message is built only when debug is on
/// ```
///
/// Levels order by severity, as swift-log's do (`debug < info < warning < error`); a logger
/// writes its ``level`` and every more severe one.
public struct Logger: Sendable {
  /// How severe a message is, least first.
  public enum Level: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    case debug = 0
    case info
    case warning
    case error

    /// Parses `debug`, `info`, `warning` (or `warn`) or `error`.
    public init?(name: String) {
      switch name.lowercased() {
      case "error": self = .error
      case "warning", "warn": self = .warning
      case "info": self = .info
      case "debug": self = .debug
      default: return nil
      }
    }

    public var description: String {
      switch self {
      case .debug: "debug"
      case .info: "info"
      case .warning: "warning"
      case .error: "error"
      }
    }

    public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// What starts every line: the program's name by default.
  public let label: String
  /// The least severe level written: messages of this level and more severe ones are.
  public let level: Level
  private let sink: @Sendable (String) -> Void

  /// - Parameters:
  ///   - label: starts every line; the program's name (``programName``) by default.
  ///   - sink: receives each finished line including its "\n"; stderr by default.
  public init(
    label: String = Logger.programName, level: Level = .info,
    sink: (@Sendable (String) -> Void)? = nil
  ) {
    self.label = label
    self.level = level
    self.sink = sink ?? Logger.writeToStandardError
  }

  /// The running program's file name, e.g. `stated`.
  public static let programName: String = {
    let path = CommandLine.arguments.first ?? ""
    let name = path.split(separator: "/").last.map(String.init) ?? ""
    return name.isEmpty ? "server" : name
  }()

  /// A logger that writes nothing.
  public static let silent = Logger(level: .error, sink: { _ in })

  /// Whether messages of `level` are written: it is at least as severe as ``level``.
  public func isEnabled(_ level: Level) -> Bool { level >= self.level }

  public func log(_ level: Level, _ message: @autoclosure () -> String) {
    guard isEnabled(level) else { return }
    sink("\(label): \(level): \(message())\n")
  }

  public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
  public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
  public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
  public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }

  /// Writes `message` and a "\n" to standard error, whatever the level (for fatal errors).
  public static func writeLine(_ message: String) {
    writeToStandardError(message + "\n")
  }

  static func writeToStandardError(_ line: String) {
    writeAll(2, line)
  }
}
