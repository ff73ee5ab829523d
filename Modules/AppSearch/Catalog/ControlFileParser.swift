import Glibc

/// Reads Debian control files (`/var/lib/dpkg/status`, apt `*_Packages`):
/// stanzas of `Field: value` lines separated by blank lines.
///
/// ```text
/// Package: bash
/// Status: install ok installed
/// Description: GNU Bourne Again SHell
///  Bash is an sh-compatible command language interpreter.
/// ```
///
/// Tolerant by design, since the files are big and written by many tools:
/// lines starting with a space or tab continue the previous field, CRLF is
/// accepted, lines without a colon are skipped, unknown fields are ignored,
/// and invalid UTF-8 is decoded lossily (as U+FFFD) instead of failing.
enum ControlFileParser {
  private typealias Bytes = UnsafeBufferPointer<UInt8>

  static func stanzas(in data: UnsafeRawBufferPointer) -> [PackageStanza] {
    let bytes = data.bindMemory(to: UInt8.self)
    var stanzas: [PackageStanza] = []
    var current = PackageStanza()
    var field = PackageStanza.Field.other
    var lineStart = 0
    while lineStart < bytes.count {
      let newline = nextNewline(in: bytes, from: lineStart)
      var line = lineStart..<newline
      if line.last.map({ bytes[$0] }) == 0x0d { line = line.dropLast() }
      lineStart = newline + 1
      let first = line.first.map { bytes[$0] }
      if isBlank(bytes, line) {
        if !current.isEmpty { stanzas.append(current) }
        current = PackageStanza()
        field = .other
      } else if first == 0x20 || first == 0x09 {
        current.continue(field, with: text(bytes, trimmed(bytes, line)))
      } else if let colon = line.first(where: { bytes[$0] == 0x3a }) {
        field = PackageStanza.Field(name: Bytes(rebasing: bytes[line.lowerBound..<colon]))
        current.set(field, to: text(bytes, trimmed(bytes, (colon + 1)..<line.upperBound)))
      } else {
        field = .other  // not a field: ignore it and whatever continues it
      }
    }
    if !current.isEmpty { stanzas.append(current) }
    return stanzas
  }

  private static func nextNewline(in bytes: Bytes, from start: Int) -> Int {
    guard let base = bytes.baseAddress,
      let hit = memchr(base + start, 0x0a, bytes.count - start)
    else { return bytes.count }
    return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
  }

  private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

  /// Whitespace-only lines end a stanza too, as in python-debian: a stray
  /// space must not glue two packages together.
  private static func isBlank(_ bytes: Bytes, _ line: Range<Int>) -> Bool {
    line.allSatisfy { isSpace(bytes[$0]) }
  }

  private static func trimmed(_ bytes: Bytes, _ range: Range<Int>) -> Range<Int> {
    var range = range
    while let first = range.first, isSpace(bytes[first]) { range = range.dropFirst() }
    while let last = range.last, isSpace(bytes[last]) { range = range.dropLast() }
    return range
  }

  private static func text(_ bytes: Bytes, _ range: Range<Int>) -> String {
    String(decoding: Bytes(rebasing: bytes[range]), as: UTF8.self)
  }
}
