import Foundation

/// A script of requests and reads for a real `stated` (Tests/Fixtures/replies.txt), in a
/// PROTOCOL.md-like notation, one step a line:
///
/// - `N> LINE`: send LINE and `\n` on connection N (opened at its first use).
/// - `N>% LINE`: the same with `%XX` decoded to a byte (for bytes that are not UTF-8).
/// - `N>x COUNT`: send COUNT bytes `x` and `\n` (an oversized frame).
/// - `N<` (anything after it is the last recording): read the next line of connection N;
///   recorded as `N< LINE`, or `N< (closed)` when the daemon closed the connection.
/// - `!root-only`: the rest needs root (a tmpfs state directory, another uid); without root it
///   is skipped and only the part before it is compared.
/// - `!full-disk` / `!free-disk`: fill the state directory's tmpfs, then use up the journal
///   file's last page with increments on a connection of its own (so the next bigger change
///   is refused whatever the journal's record sizes are) / free it again.
/// - `!nobody`: connect as uid 65534 and record each line received until the daemon closes,
///   as `!nobody< LINE` (such lines are recordings, not steps).
/// - `#` comments and blank lines are copied.
enum ReplyScript {
  enum Step: Equatable {
    case text(String)
    case send(connection: Int, bytes: [UInt8], line: String)
    case read(connection: Int)
    case rootOnly, fullDisk, freeDisk, nobody
  }

  struct Malformed: Error, CustomStringConvertible {
    let description: String
  }

  static func steps(of script: String) throws -> [Step] {
    var steps: [Step] = []
    var lines = script.split(separator: "\n", omittingEmptySubsequences: false)
    if lines.last == "" { lines.removeLast() }
    for (index, line) in lines.enumerated() {
      let line = String(line)
      if line.isEmpty || line.hasPrefix("#") {
        steps.append(.text(line))
        continue
      }
      if line.hasPrefix("!nobody< ") { continue }
      switch line {
      case "!root-only": steps.append(.rootOnly)
      case "!full-disk": steps.append(.fullDisk)
      case "!free-disk": steps.append(.freeDisk)
      case "!nobody": steps.append(.nobody)
      default: steps.append(try connectionStep(line, at: index + 1))
      }
    }
    return steps
  }

  private static func connectionStep(_ line: String, at number: Int) throws -> Step {
    let digits = line.prefix { $0.isASCII && $0.isNumber }
    guard let connection = Int(digits) else {
      throw Malformed(description: "replies.txt line \(number): not a step: \(line)")
    }
    let rest = line.dropFirst(digits.count)
    if rest.hasPrefix("<") { return .read(connection: connection) }
    if rest.hasPrefix("> ") {
      return .send(connection: connection, bytes: Array(rest.dropFirst(2).utf8), line: line)
    }
    if rest.hasPrefix(">% "), let bytes = percentDecoded(rest.dropFirst(3)) {
      return .send(connection: connection, bytes: bytes, line: line)
    }
    if rest.hasPrefix(">x "), let count = Int(rest.dropFirst(3)), count > 0 {
      return .send(
        connection: connection, bytes: [UInt8](repeating: UInt8(ascii: "x"), count: count),
        line: line)
    }
    throw Malformed(description: "replies.txt line \(number): not a step: \(line)")
  }

  /// `%XX` as a byte, everything else as its UTF-8; nil for a `%` not followed by two hex digits.
  static func percentDecoded(_ text: Substring) -> [UInt8]? {
    var bytes: [UInt8] = []
    var rest = Array(text.utf8)[...]
    while let byte = rest.popFirst() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard rest.count >= 2,
        let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16)
      else { return nil }
      bytes.append(value)
      rest = rest.dropFirst(2)
    }
    return bytes
  }
}
