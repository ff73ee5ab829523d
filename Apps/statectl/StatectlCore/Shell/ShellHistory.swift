import Glibc
import SystemCalls

/// The lines entered at the shell's prompt, recalled with Up and Down and kept across sessions
/// in a file: `$XDG_STATE_HOME/statectl_history`, else `~/.local/state/statectl_history` (one
/// line per entry, the newest last, at most `limit` kept).
///
/// Each entered line is appended to the file at once, so a session that ends abruptly loses
/// nothing and sessions running side by side each add theirs.
public struct ShellHistory {
  public private(set) var entries: [String]
  public let limit: Int
  /// The file, or nil to keep history in memory only (no home to put it in).
  public let path: String?
  /// While browsing with Up/Down: the entry shown (entries.count = the line being typed).
  private var position: Int
  /// The line being typed, kept while browsing older entries.
  private var draft = ""

  /// Loads the history file at `path` (a missing file is an empty history).
  public init(path: String?, limit: Int = 1000) {
    self.path = path
    self.limit = limit
    entries = path.map { Self.load($0, limit: limit) } ?? []
    position = entries.count
  }

  /// Where the history lives for this environment; nil without XDG_STATE_HOME or HOME.
  public static func defaultPath(environment: (String) -> String?) -> String? {
    if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") {
      return state + "/statectl_history"
    }
    guard let home = environment("HOME"), !home.isEmpty else { return nil }
    return home + "/.local/state/statectl_history"
  }

  /// Adds an entered line without its surrounding spaces (not a blank one, nor a repeat of the
  /// last) and appends it to the file.
  public mutating func add(_ entered: String) {
    defer { resetBrowsing() }
    let line = String(entered.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    guard !line.isEmpty, line != entries.last, !line.contains("\n") else { return }
    entries.append(line)
    if entries.count > limit { entries.removeFirst(entries.count - limit) }
    if let path { Self.append(line, to: path) }
  }

  /// The entry before the one shown (Up), saving `current` when leaving the typed line; nil at
  /// the oldest.
  public mutating func previous(current: String) -> String? {
    guard position > 0 else { return nil }
    if position == entries.count { draft = current }
    position -= 1
    return entries[position]
  }

  /// The entry after the one shown (Down), the typed line after the newest; nil past it.
  public mutating func next() -> String? {
    guard position < entries.count else { return nil }
    position += 1
    return position == entries.count ? draft : entries[position]
  }

  /// Forgets browsing (a new line starts at the newest entry).
  public mutating func resetBrowsing() {
    position = entries.count
    draft = ""
  }

  static func load(_ path: String, limit: Int) -> [String] {
    guard let bytes = try? TextFile.read(path) else { return [] }
    let lines = bytes.split(separator: UInt8(ascii: "\n")).map {
      String(decoding: $0, as: UTF8.self)
    }
    let kept = Array(lines.suffix(limit))
    // A file grown past twice the limit is rewritten with the entries kept.
    if lines.count > 2 * limit { rewrite(kept, to: path) }
    return kept
  }

  static func append(_ line: String, to path: String) {
    makeParentDirectory(of: path)
    let fd = retryingOnInterrupt { open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600) }
    guard fd >= 0 else { return }  // history is a convenience: a read-only home is no error
    writeAll(fd, line + "\n")
    close(fd)
  }

  /// Replaces the file at once (a temporary file renamed over it).
  static func rewrite(_ lines: [String], to path: String) {
    let temporary = path + ".new"
    let fd = retryingOnInterrupt {
      open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    }
    guard fd >= 0 else { return }
    writeAll(fd, lines.map { $0 + "\n" }.joined())
    close(fd)
    if rename(temporary, path) != 0 { unlink(temporary) }
  }

  /// Creates the missing directories above `path` (private to the user, as XDG asks).
  static func makeParentDirectory(of path: String) {
    var directories: [String] = []
    var current = path
    while let slash = current.lastIndex(of: "/"), slash != current.startIndex {
      current = String(current[..<slash])
      directories.append(current)
    }
    for directory in directories.reversed() where access(directory, F_OK) != 0 {
      mkdir(directory, 0o700)
    }
  }
}
