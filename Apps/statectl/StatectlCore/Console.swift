import Glibc
import SystemCalls

/// Where `statectl` writes: standard output and standard error.
public protocol Console: AnyObject {
  /// Whether standard output is a terminal (readable text instead of JSON lines).
  var isTerminal: Bool { get }
  /// The terminal's width in columns, when known (to wrap tables).
  var width: Int? { get }
  /// Writes `text` to standard output at once (a `watch` line must not wait in a buffer).
  func out(_ text: String)
  /// Writes `text` to standard error.
  func err(_ text: String)
}

/// The process's file descriptors 1 and 2, written with write(2) and no buffering
/// beyond each call, so nothing is lost when a signal ends the process.
public final class StandardConsole: Console {
  public let isTerminal: Bool
  public let width: Int?

  public init() {
    isTerminal = isatty(1) == 1
    var size = winsize()
    if isTerminal && ioctl(1, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 {
      width = Int(size.ws_col)
    } else {
      width = getenv("COLUMNS").flatMap { Int(String(cString: $0)) }
    }
  }

  public func out(_ text: String) { Self.write(text, to: 1) }
  public func err(_ text: String) { Self.write(text, to: 2) }

  /// EPIPE and the like mean the reader is gone: nothing more to do, so failures are ignored.
  private static func write(_ text: String, to fd: Int32) {
    writeAll(fd, text)
  }
}

/// Collects output in memory, for tests.
public final class CapturedConsole: Console {
  public let isTerminal: Bool
  public let width: Int?
  public private(set) var standardOutput = ""
  public private(set) var standardError = ""

  public init(isTerminal: Bool = false, width: Int? = nil) {
    self.isTerminal = isTerminal
    self.width = width
  }

  public func out(_ text: String) { standardOutput += text }
  public func err(_ text: String) { standardError += text }
}
