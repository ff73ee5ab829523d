import Glibc
import SystemCalls

/// The terminal the shell runs on: standard input switched to raw mode while a line is typed
/// (each key arrives at once, unechoed; Ctrl-C is a key, not a signal), and back to the mode it
/// found while a command runs and when the shell ends.
final class Terminal {
  private let input: Int32 = 0
  private let output: Int32 = 1
  private var original = termios()
  private var isRaw = false

  /// nil when standard input is not a terminal whose mode can be read.
  init?() {
    guard isatty(input) == 1, tcgetattr(input, &original) == 0 else { return nil }
  }

  deinit { cooked() }

  /// Raw mode, as linenoise sets it; output processing stays on, so "\n" still starts a line.
  /// Modes change without flushing: keys typed ahead while a command ran are kept.
  func raw() {
    guard !isRaw else { return }
    var mode = original
    mode.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
    mode.c_cflag |= tcflag_t(CS8)
    mode.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
    withUnsafeMutableBytes(of: &mode.c_cc) { characters in
      characters[Int(VMIN)] = 1
      characters[Int(VTIME)] = 0
    }
    isRaw = tcsetattr(input, TCSADRAIN, &mode) == 0
  }

  /// The mode the shell found.
  func cooked() {
    guard isRaw else { return }
    tcsetattr(input, TCSADRAIN, &original)
    isRaw = false
  }

  /// The bytes of the next key(s); nil at end of input or on an error.
  func read() -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = buffer.withUnsafeMutableBytes { bytes in
      retryingOnInterrupt { Glibc.read(input, bytes.baseAddress, bytes.count) }
    }
    guard count > 0 else { return nil }
    return Array(buffer[..<count])
  }

  func write(_ text: String) {
    writeAll(output, text)
  }

  /// Columns of the terminal (80 when it does not say).
  var width: Int {
    var size = winsize()
    guard ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
    return Int(size.ws_col)
  }
}
