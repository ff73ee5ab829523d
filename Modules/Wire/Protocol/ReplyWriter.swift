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

  /// `{"id":…,"ok":…`, in one append (`ReplyLine.putHead`).
  private mutating func begin(id: RequestID?, ok: Bool) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { scratch in
      var line = ReplyLine(end: scratch.baseAddress! + 48)
      line.putHead(id: id, ok: ok, before: &writer.bytes)
      ReplyLine.append(from: line.start, upTo: line.end, to: &writer.bytes)
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

  private static func write(_ error: WireError, to writer: inout JSONWriter) {
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

  /// The largest state an event's reply copies into its line on the stack (a counter's takes
  /// 11 to 30 bytes); a larger one is appended on its own.
  package static var inlineStateBytes: Int { 384 }

  /// Appends the reply to an event,
  /// `{"id":…,"ok":…,"error":{…},"outcome":"…","state":{…},"seq":N}` and its `\n`, to `buffer`:
  /// `"ok":false` and the error when there is one. Every `send`'s reply: put together on the
  /// stack around the state's bytes (`ReplyLine`) and appended in one copy (more for a
  /// string id, an error, or a state of more than `inlineStateBytes`).
  package static func appendOutcome(
    id: RequestID?, _ outcome: StaticString, error: WireError?, state: [UInt8],
    sequence: UInt64, to buffer: inout [UInt8]
  ) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128 + inlineStateBytes) { scratch in
      var line = ReplyLine(end: scratch.baseAddress! + scratch.count)
      line.put("}\n")
      line.put(Int64(clamping: sequence))
      line.put(#","seq":"#)
      let afterState = line.start
      let inline = state.count <= inlineStateBytes
      if inline { line.put(state) }
      line.put(#"","state":"#)
      line.put(outcome)
      line.put(#","outcome":""#)
      let afterHead = line.start
      line.putHead(id: id, ok: error == nil, before: &buffer)
      var from = line.start
      if let error {
        ReplyLine.append(from: from, upTo: afterHead, to: &buffer)
        JSONWriter.appending(to: &buffer) { write(error, to: &$0) }
        from = afterHead
      }
      if !inline {
        ReplyLine.append(from: from, upTo: afterState, to: &buffer)
        buffer.append(contentsOf: state)
        from = afterState
      }
      ReplyLine.append(from: from, upTo: line.end, to: &buffer)
    }
  }
}
