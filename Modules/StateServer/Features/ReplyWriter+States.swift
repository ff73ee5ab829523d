import BlocCore
import Wire

/// Replies and pushes that carry a state splice in its bytes as they were written once
/// (a ``StateSnapshot``'s JSON), instead of serializing a tree per reply.
///
/// ```swift
/// var reply = ReplyWriter(id: 7, ok: true)
/// reply.state(snapshot)  // ,"state":{…},"seq":N
/// connection.queueReply(reply.finish())
/// ```
extension ReplyWriter {
  /// `,"state":{…},"seq":N`
  mutating func state(_ snapshot: StateSnapshot) {
    key("state")
    writer.raw(snapshot.json)
    integer("seq", Int64(clamping: snapshot.sequence))
  }

  /// Appends the reply to an event that ended with `outcome`, showing `snapshot`, to `buffer`
  /// (`appendOutcome(id:_:error:state:sequence:to:)`): a failed one's carries its error,
  /// `storage_failed` when its change could not be stored (the daemon's failure, not the
  /// event's), else `event_failed`.
  static func appendOutcome(
    id: RequestID?, _ outcome: EventOutcome, _ snapshot: StateSnapshot, to buffer: inout [UInt8]
  ) {
    let name: StaticString
    var error: WireError?
    switch outcome {
    case .handled: name = "handled"
    case .dropped: name = "dropped"
    case .cancelled: name = "cancelled"
    case .failed(let failure):
      name = "failed"
      let code: ErrorCode = failure is PersistenceError ? .storageFailed : .eventFailed
      error = WireError(code, String(describing: failure))
    }
    appendOutcome(
      id: id, name, error: error, state: snapshot.json, sequence: snapshot.sequence, to: &buffer)
  }

  /// `{"push":"state","feature":…,"seq":N,"state":{…}}\n`
  static func statePush(feature: String, snapshot: StateSnapshot) -> [UInt8] {
    var line = JSONWriter(capacity: snapshot.json.count + feature.utf8.count + 48)
    line.ascii(#"{"push":"state","feature":"#)
    line.string(feature)
    line.ascii(#","seq":"#)
    line.integer(Int64(clamping: snapshot.sequence))
    line.ascii(#","state":"#)
    line.raw(snapshot.json)
    line.ascii("}\n")
    return line.bytes
  }

  /// `{"push":"state","feature":…,"seq":N,"select":…,"value":…}\n`
  static func selectionPush(
    feature: String, sequence: UInt64, selection: String, value: JSON
  )
    -> [UInt8]
  {
    var line = JSONWriter(capacity: feature.utf8.count + selection.utf8.count + 64)
    line.ascii(#"{"push":"state","feature":"#)
    line.string(feature)
    line.ascii(#","seq":"#)
    line.integer(Int64(clamping: sequence))
    line.ascii(#","select":"#)
    line.string(selection)
    line.ascii(#","value":"#)
    line.json(value)
    line.ascii("}\n")
    return line.bytes
  }
}
