import BlocCore
import Wire

/// Builds reply and push lines byte by byte, splicing in states that are already encoded
/// (a ``StateSnapshot``'s JSON) instead of serializing a tree per reply.
///
/// Same shape as Wire's `Reply`: `{"id":…,"ok":…,…fields}\n`, the id omitted when absent.
///
/// ```swift
/// var reply = ReplyWriter(id: 7, ok: true)
/// reply.string("outcome", "handled")
/// reply.state(snapshot)  // ,"state":{…},"seq":N
/// connection.queueReply(reply.finish())
/// ```
struct ReplyWriter {
  private var bytes: [UInt8] = []

  /// - Parameter buffer: storage to write into (emptied first), so that a caller replying
  ///   again and again can reuse one buffer instead of allocating one per reply.
  init(id: RequestID?, ok: Bool, capacity: Int = 128, reusing buffer: consuming [UInt8] = []) {
    bytes = consume buffer
    bytes.removeAll(keepingCapacity: true)
    bytes.reserveCapacity(capacity)
    bytes.appendASCII("{")
    switch id {
    case .number(let value)?:
      bytes.appendASCII(#""id":"#)
      JSONSerializer.writeInteger(value, to: &bytes)
      bytes.appendASCII(",")
    case .string(let value)?:
      bytes.appendASCII(#""id":"#)
      JSONSerializer.writeString(value, to: &bytes)
      bytes.appendASCII(",")
    case nil:
      break
    }
    bytes.appendASCII(ok ? #""ok":true"# : #""ok":false"#)
  }

  private mutating func key(_ name: StaticString) {
    bytes.appendASCII(",\"")
    bytes.appendASCII(name)
    bytes.appendASCII("\":")
  }

  mutating func string(_ name: StaticString, _ value: String) {
    key(name)
    JSONSerializer.writeString(value, to: &bytes)
  }

  mutating func integer(_ name: StaticString, _ value: Int64) {
    key(name)
    JSONSerializer.writeInteger(value, to: &bytes)
  }

  mutating func bool(_ name: StaticString, _ value: Bool) {
    key(name)
    bytes.appendASCII(value ? "true" : "false")
  }

  mutating func json(_ name: StaticString, _ value: JSON) {
    key(name)
    JSONSerializer.write(value, to: &bytes)
  }

  /// `,"state":{…},"seq":N`
  mutating func state(_ snapshot: StateSnapshot) {
    key("state")
    stateValueAndSequence(snapshot)
  }

  /// `{…},"seq":N`: the rest of a state after its key.
  private mutating func stateValueAndSequence(_ snapshot: StateSnapshot) {
    bytes += snapshot.json
    integer("seq", Int64(clamping: snapshot.sequence))
  }

  /// `,"outcome":"…","state":{…},"seq":N`: what every event's reply carries, the fixed part
  /// from bytes prepared once per outcome.
  mutating func outcome(_ outcome: EventOutcome, _ snapshot: StateSnapshot) {
    switch outcome {
    case .handled: bytes += Self.handled
    case .dropped: bytes += Self.dropped
    case .cancelled: bytes += Self.cancelled
    case .failed: bytes += Self.failed
    }
    stateValueAndSequence(snapshot)
  }

  private static func outcomeAndState(_ name: String) -> [UInt8] {
    Array(#","outcome":"\#(name)","state":"#.utf8)
  }
  private static let handled = outcomeAndState("handled")
  private static let dropped = outcomeAndState("dropped")
  private static let cancelled = outcomeAndState("cancelled")
  private static let failed = outcomeAndState("failed")

  /// `,"error":{"code":…,"message":…}`
  mutating func error(_ error: WireError) {
    key("error")
    bytes.appendASCII(#"{"code":"#)
    JSONSerializer.writeString(error.code.rawValue, to: &bytes)
    bytes.appendASCII(#","message":"#)
    JSONSerializer.writeString(error.message, to: &bytes)
    bytes.appendASCII("}")
  }

  /// The finished line, with its "\n". Mutating, not consuming: the last append must find the
  /// buffer uniquely referenced (a consuming call copied the writer first, and then the line).
  mutating func finish() -> [UInt8] {
    bytes.appendASCII("}\n")
    return bytes
  }

  /// `{"id":…,"ok":false,"error":{…}}\n`
  static func failure(id: RequestID?, _ error: WireError) -> [UInt8] {
    var reply = ReplyWriter(id: id, ok: false)
    reply.error(error)
    return reply.finish()
  }

  /// `{"push":"state","feature":…,"seq":N,"state":{…}}\n`
  static func statePush(feature: String, snapshot: StateSnapshot) -> [UInt8] {
    var line: [UInt8] = []
    line.reserveCapacity(snapshot.json.count + feature.utf8.count + 48)
    line.appendASCII(#"{"push":"state","feature":"#)
    JSONSerializer.writeString(feature, to: &line)
    line.appendASCII(#","seq":"#)
    JSONSerializer.writeInteger(Int64(clamping: snapshot.sequence), to: &line)
    line.appendASCII(#","state":"#)
    line.append(contentsOf: snapshot.json)
    line.appendASCII("}\n")
    return line
  }

  /// `{"push":"state","feature":…,"seq":N,"select":…,"value":…}\n`
  static func selectionPush(
    feature: String, sequence: UInt64, selection: String, value: JSON
  )
    -> [UInt8]
  {
    var line: [UInt8] = []
    line.reserveCapacity(feature.utf8.count + selection.utf8.count + 64)
    line.appendASCII(#"{"push":"state","feature":"#)
    JSONSerializer.writeString(feature, to: &line)
    line.appendASCII(#","seq":"#)
    JSONSerializer.writeInteger(Int64(clamping: sequence), to: &line)
    line.appendASCII(#","select":"#)
    JSONSerializer.writeString(selection, to: &line)
    line.appendASCII(#","value":"#)
    JSONSerializer.write(value, to: &line)
    line.appendASCII("}\n")
    return line
  }
}

extension [UInt8] {
  /// Appends the bytes of a compile-time string.
  mutating func appendASCII(_ text: StaticString) {
    append(
      contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }
}
