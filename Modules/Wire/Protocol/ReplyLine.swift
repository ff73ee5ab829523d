import SystemCalls

/// Part of a reply line put together in scratch memory (on the stack), backwards from its end
/// as numbers' digits come, then appended to the reply's buffer in one copy: a reply's head
/// and an event's reply (`ReplyWriter.appendOutcome`) take
/// one append each, where a member-by-member writer takes one per piece (each checking the
/// array's uniqueness and room, about 90 instructions).
struct ReplyLine {
  /// Where the line ends (one past its last byte).
  let end: UnsafeMutablePointer<UInt8>
  /// Where it starts: each `put` writes before it.
  private(set) var start: UnsafeMutablePointer<UInt8>

  init(end: UnsafeMutablePointer<UInt8>) {
    self.end = end
    start = end
  }

  mutating func put(_ text: StaticString) {
    start -= text.utf8CodeUnitCount
    start.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
  }

  mutating func put(_ bytes: [UInt8]) {
    start -= bytes.count
    bytes.withUnsafeBufferPointer { bytes in
      guard let source = bytes.baseAddress else { return }
      start.update(from: source, count: bytes.count)
    }
  }

  /// Decimal, as `JSONWriter.integer(_:)` writes it (at most 20 bytes).
  mutating func put(_ value: Int64) {
    start = decimalDigits(value, before: start)
  }

  /// `{"id":N,"ok":…`, what every reply starts with (its id left out when it has none). A
  /// string id is escaped, and so appended to `buffer` at once, before this line: this puts
  /// `,"ok":…` alone.
  mutating func putHead(id: RequestID?, ok: Bool, before buffer: inout [UInt8]) {
    put(ok ? #""ok":true"# : #""ok":false"#)
    switch id {
    case .number(let value)?:
      put(",")
      put(value)
      put(#"{"id":"#)
    case .string(let text)?:
      put(",")
      JSONWriter.appending(to: &buffer) { writer in
        writer.ascii(#"{"id":"#)
        writer.string(text)
      }
    case nil:
      put("{")
    }
  }

  /// Appends the bytes from `start` up to `end` (both within the line) to `buffer`.
  static func append(
    from start: UnsafeMutablePointer<UInt8>, upTo end: UnsafeMutablePointer<UInt8>,
    to buffer: inout [UInt8]
  ) {
    buffer.append(contentsOf: UnsafeBufferPointer(start: start, count: end - start))
  }
}
