/// A strict RFC 8259 JSON parser: builds a `JSON` tree with `JSONCursor`, the one tokenizer.
///
/// - The input must be well-formed UTF-8 (`.invalidUTF8` otherwise), with no
///   byte-order mark and nothing but whitespace after the value.
/// - Escapes are decoded, including `\uXXXX` surrogate pairs; a lone surrogate
///   is an error, since a Swift `String` cannot hold one.
/// - Numbers without fraction or exponent that fit in `Int64` become
///   `.integer`; all others become `.number`. `-0` becomes `.number(-0.0)` so
///   the sign survives. A number beyond `Double` range is an error.
/// - Arrays and objects may nest at most `maxDepth` levels.
/// - A repeated object key keeps its first position and its last value.
///
/// ```swift
/// let json = try JSONParser().parse(Array(#"{"op":"get","feature":"counter"}"#.utf8))
/// json["op"]?.stringValue  // "get"
/// let same = try JSON(parsing: #"{"op":"get"}"#)
/// ```
public struct JSONParser: Sendable {
  /// The default `maxDepth`.
  public static let defaultMaxDepth = 512

  /// How deeply arrays and objects may nest; deeper input fails with
  /// `.nestingTooDeep` instead of exhausting the stack.
  ///
  /// Parsing recurses, using about 0.5 KB of stack per level in release
  /// builds (about 2.5 KB in debug builds): the default of 512 needs roughly
  /// 300 KB (1.3 MB in debug), well within Linux's default 8 MB thread stacks.
  public var maxDepth: Int

  public init(maxDepth: Int = JSONParser.defaultMaxDepth) {
    self.maxDepth = maxDepth
  }

  /// Parses one JSON document.
  public func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONError) -> JSON {
    var cursor = JSONCursor(bytes, maxDepth: maxDepth)
    return try cursor.parseDocument()
  }

  /// Parses one JSON document.
  public func parse(_ bytes: [UInt8]) throws(JSONError) -> JSON {
    let result = bytes.withUnsafeBytes { raw in
      Result { () throws(JSONError) -> JSON in try parse(raw) }
    }
    return try result.get()
  }

  /// Parses one JSON document from any byte collection (contiguous ones are
  /// parsed in place, others are copied first).
  public func parse(_ bytes: some Collection<UInt8>) throws(JSONError) -> JSON {
    let contiguous = bytes.withContiguousStorageIfAvailable { buffer in
      Result { () throws(JSONError) -> JSON in try parse(UnsafeRawBufferPointer(buffer)) }
    }
    if let contiguous { return try contiguous.get() }
    return try parse(Array(bytes))
  }

  /// Parses one JSON document from text.
  public func parse(_ text: String) throws(JSONError) -> JSON {
    var text = text
    let result = text.withUTF8 { buffer in
      Result { () throws(JSONError) -> JSON in try parse(UnsafeRawBufferPointer(buffer)) }
    }
    return try result.get()
  }
}

extension JSON {
  /// Parses bytes with a default `JSONParser`.
  ///
  /// ```swift
  /// let json = try JSON(parsing: Array("[1, 2.5, \"x\"]".utf8))
  /// ```
  public init(parsing bytes: some Collection<UInt8>) throws(JSONError) {
    self = try JSONParser().parse(bytes)
  }

  /// Parses bytes with a default `JSONParser`.
  public init(parsing bytes: [UInt8]) throws(JSONError) {
    self = try JSONParser().parse(bytes)
  }

  /// Parses text with a default `JSONParser`.
  public init(parsing text: String) throws(JSONError) {
    self = try JSONParser().parse(text)
  }
}
