/// Builds a reply line byte by byte: `{"id":…,"ok":…,…members}\n`, the id left out when absent.
/// Every reply the daemon sends, and ``Reply``'s, is written by it, with ``JSONWriter``.
///
/// ```swift
/// var reply = ReplyWriter(id: 7, ok: true)
/// reply.string("outcome", "handled")
/// reply.raw("state", stateBytes)  // ,"state":{…}, written once when the state changed
/// connection.queueReply(reply.finish())
/// ```
public struct ReplyWriter {
  /// The line so far; append members through the methods below.
  public var writer: JSONWriter

  /// - Parameter buffer: storage to write into (emptied first), so that a caller replying
  ///   again and again can reuse one buffer instead of allocating one per reply.
  public init(
    id: RequestID?, ok: Bool, capacity: Int = 128, reusing buffer: consuming [UInt8] = []
  ) {
    writer = JSONWriter(reusing: consume buffer, capacity: capacity)
    begin(id: id, ok: ok)
  }

  /// A reply written after the lines already in `buffer` (which is not emptied), so that
  /// several replies share one buffer: ``finish()`` returns them all.
  public init(id: RequestID?, ok: Bool, appendingTo buffer: consuming [UInt8]) {
    writer = JSONWriter(capacity: 0)
    writer.bytes = consume buffer
    begin(id: id, ok: ok)
  }

  /// `{"id":…,"ok":…`, in one append (`putHead(id:ok:before:buffer:)`).
  private mutating func begin(id: RequestID?, ok: Bool) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { scratch in
      let end = scratch.baseAddress! + 48
      let start = Self.putHead(id: id, ok: ok, before: end, buffer: &writer.bytes)
      Self.append(from: start, upTo: end, to: &writer.bytes)
    }
  }

  /// `,"name":`, before a member's value (written with ``writer``).
  public mutating func key(_ name: StaticString) {
    writer.ascii(",\"")
    writer.ascii(name)
    writer.ascii("\":")
  }

  public mutating func string(_ name: StaticString, _ value: String) {
    key(name)
    writer.string(value)
  }

  public mutating func integer(_ name: StaticString, _ value: Int64) {
    key(name)
    writer.integer(value)
  }

  public mutating func bool(_ name: StaticString, _ value: Bool) {
    key(name)
    writer.bool(value)
  }

  public mutating func json(_ name: StaticString, _ value: JSON) {
    key(name)
    writer.json(value)
  }

  /// A member whose value was written before (a state's bytes).
  public mutating func raw(_ name: StaticString, _ value: [UInt8]) {
    key(name)
    writer.raw(value)
  }

  /// A member named at run time (``Reply/success(id:fields:)``).
  public mutating func member(_ name: String, _ value: JSON) {
    writer.byte(.comma)
    writer.key(name)
    writer.json(value)
  }

  /// `,"error":{"code":…,"message":…}`
  public mutating func error(_ error: WireError) {
    Self.write(error, to: &writer)
  }

  static func write(_ error: WireError, to writer: inout JSONWriter) {
    writer.ascii(#","error":{"code":"#)
    writer.string(error.code.rawValue)
    writer.ascii(#","message":"#)
    writer.string(error.message)
    writer.byte(.closeBrace)
  }

  /// The finished line, with its "\n". Mutating, not consuming: the last append must find the
  /// buffer uniquely referenced (a consuming call copied the writer first, and then the line).
  public mutating func finish() -> [UInt8] {
    writer.ascii("}\n")
    return writer.bytes
  }

  /// `{"id":…,"ok":false,"error":{…}}\n`
  public static func failure(id: RequestID?, _ error: WireError) -> [UInt8] {
    var reply = ReplyWriter(id: id, ok: false)
    reply.error(error)
    return reply.finish()
  }
}
