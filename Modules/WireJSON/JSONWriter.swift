/// The package's one JSON writer: compact, single-line UTF-8, appended to a byte buffer.
///
/// Replies and pushes, every JSON tree's `serialized()`, and the states features write (the
/// same bytes stored in the journal, sent in the reply and pushed to watchers) all come from
/// here, so one text form holds everywhere:
/// - members in the order they are written: a JSON tree keeps its own order; a state writes
///   its members sorted by their UTF-8 bytes (its declaration sorts them once);
/// - strings escape `"`, `\` and control characters (as `\n`, `\t`, … or `\u00XX`), so one
///   value is always exactly one frame line; `/` and non-ASCII text are written as they are;
/// - integers in decimal; doubles in Swift's shortest round-tripping form (`0.1`, `5.0`,
///   `1e-07`); NaN and infinities, which JSON cannot express, as `null`.
///
/// ```swift
/// var writer = JSONWriter()
/// writer.ascii(#"{"a":"#)
/// writer.json([1, 2.5, "x\n"])
/// writer.byte(.closeBrace)
/// // writer.bytes == Array(#"{"a":[1,2.5,"x\n"]}"#.utf8)
/// ```
public struct JSONWriter {
  /// What was written so far.
  public var bytes: [UInt8]

  public init(capacity: Int = 64) {
    bytes = []
    // Not for 0 (a writer about to be handed a buffer): reserving even nothing makes the
    // empty array a buffer of its own, about a hundred instructions, on every send.
    if capacity > 0 { bytes.reserveCapacity(capacity) }
  }

  /// Writes into `buffer`, emptied first, so that a caller writing again and again reuses one
  /// allocation.
  public init(reusing buffer: consuming [UInt8], capacity: Int = 64) {
    bytes = consume buffer
    bytes.removeAll(keepingCapacity: true)
    bytes.reserveCapacity(capacity)
  }

  /// Runs `body` with a writer that appends to `buffer` (no copy: the buffer is moved into the
  /// writer and back).
  public static func appending<Failure>(
    to buffer: inout [UInt8], _ body: (inout JSONWriter) throws(Failure) -> Void
  ) throws(Failure) {
    var writer = JSONWriter(capacity: 0)
    swap(&writer.bytes, &buffer)
    defer { swap(&writer.bytes, &buffer) }
    try body(&writer)
  }

  // MARK: Values

  public mutating func null() { bytes.append(literal: "null") }

  public mutating func bool(_ flag: Bool) { bytes.append(literal: flag ? "true" : "false") }

  /// The decimal digits of `value`, written in place (no intermediate string).
  public mutating func integer(_ value: Int64) {
    bytes.append(upTo: 20) { start in writeDecimal(value, at: start) - start }
  }

  /// The decimal digits of `value` (the package's one decimal writer, two digits a step),
  /// written straight into the buffer's spare capacity.
  public mutating func unsigned(_ value: UInt64) {
    bytes.append(upTo: 20) { start in writeDecimal(value, at: start) - start }
  }

  /// `value` in Swift's shortest round-tripping form, or `null` if not finite.
  public mutating func number(_ value: Double) {
    guard value.isFinite else {
      null()
      return
    }
    bytes.append(contentsOf: value.description.utf8)
  }

  /// `text` as a quoted, escaped JSON string.
  public mutating func string(_ text: String) {
    let done: Void? = text.utf8.withContiguousStorageIfAvailable { utf8 in
      quoted(utf8)
    }
    if done == nil {  // not native UTF-8 storage: make it so
      var native = text
      native.withUTF8 { quoted($0) }
    }
  }

  /// A JSON tree, its object members in the tree's order.
  public mutating func json(_ value: JSON) {
    switch value {
    case .null: null()
    case .bool(let flag): bool(flag)
    case .integer(let integer): self.integer(integer)
    case .number(let number): self.number(number)
    case .string(let text): string(text)
    case .array(let elements):
      bytes.append(.openBracket)
      for (offset, element) in elements.enumerated() {
        if offset > 0 { bytes.append(.comma) }
        json(element)
      }
      bytes.append(.closeBracket)
    case .object(let object):
      bytes.append(.openBrace)
      for (offset, member) in object.enumerated() {
        if offset > 0 { bytes.append(.comma) }
        string(member.key)
        bytes.append(.colon)
        json(member.value)
      }
      bytes.append(.closeBrace)
    }
  }

  // MARK: Structure

  /// `"name":`, a member's key (the caller writes the comma before it).
  public mutating func key(_ name: String) {
    string(name)
    bytes.append(.colon)
  }

  /// An object of `count` members: `member` writes the one at an index, its key and value,
  /// or returns false to leave it out (an optional field's nil), and what it wrote is taken
  /// back with the comma before it. Every object of declared members (a state's, an event's)
  /// is written by this one loop.
  @inlinable
  package mutating func object(
    count: Int, _ member: (Int, inout JSONWriter) throws -> Bool
  ) rethrows {
    byte(UInt8(ascii: "{"))
    var first = true
    for index in 0..<count {
      let start = bytes.count
      if !first { byte(UInt8(ascii: ",")) }
      if try member(index, &self) {
        first = false
      } else {
        bytes.removeSubrange(start...)
      }
    }
    byte(UInt8(ascii: "}"))
  }

  /// Fixed text the caller knows to be valid JSON where it goes (`{"push":"state","feature":`).
  public mutating func ascii(_ text: StaticString) { bytes.append(literal: text) }

  /// JSON written before (a state's bytes, a key written once at declaration).
  public mutating func raw(_ written: [UInt8]) {
    written.withUnsafeBufferPointer { bytes.append(copying: $0) }
  }

  /// JSON written before, from part of a buffer.
  public mutating func raw(_ written: ArraySlice<UInt8>) {
    written.withUnsafeBufferPointer { bytes.append(copying: $0) }
  }

  /// One structural byte: `{`, `}`, `[`, `]`, `,`, `:`, or the frame's `\n`.
  public mutating func byte(_ byte: UInt8) { bytes.append(byte) }

  // MARK: Escaping

  /// Appends `utf8` quoted: in one copy when nothing in it needs escaping (the usual text),
  /// else escaped.
  private mutating func quoted(_ utf8: UnsafeBufferPointer<UInt8>) {
    guard utf8.contains(where: { $0 < 0x20 || $0 == .quote || $0 == .backslash }) else {
      bytes.append(upTo: utf8.count + 2) { start in
        start.pointee = .quote
        if let source = utf8.baseAddress { (start + 1).update(from: source, count: utf8.count) }
        start[utf8.count + 1] = .quote
        return utf8.count + 2
      }
      return
    }
    bytes.append(.quote)
    escaped(utf8)
    bytes.append(.quote)
  }

  /// Appends string content, escaping what JSON requires, in runs between escapes.
  private mutating func escaped(_ utf8: UnsafeBufferPointer<UInt8>) {
    var runStart = 0
    for index in utf8.indices {
      let byte = utf8[index]
      guard byte < 0x20 || byte == .quote || byte == .backslash else { continue }
      bytes.append(copying: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
      runStart = index + 1
      bytes.append(.backslash)
      switch byte {
      case .quote, .backslash: bytes.append(byte)
      case .lineFeed: bytes.append(UInt8(ascii: "n"))
      case .carriageReturn: bytes.append(UInt8(ascii: "r"))
      case .tab: bytes.append(UInt8(ascii: "t"))
      case 0x08: bytes.append(UInt8(ascii: "b"))
      case 0x0C: bytes.append(UInt8(ascii: "f"))
      default:
        bytes.append(literal: "u00")
        bytes.append(Self.hexDigits[Int(byte >> 4)])
        bytes.append(Self.hexDigits[Int(byte & 0xF)])
      }
    }
    bytes.append(copying: UnsafeBufferPointer(rebasing: utf8[runStart...]))
  }

  private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
