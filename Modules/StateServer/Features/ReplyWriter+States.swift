import BlocCore
import Wire

/// Replies and pushes that carry a state splice in its bytes as they were written once
/// (a ``StateSnapshot``'s JSON), instead of serializing a tree per reply.
///
/// ```swift
/// var reply = ReplyWriter(id: 7, ok: true)
/// reply.outcome(.handled, snapshot)  // ,"outcome":"handled","state":{…},"seq":N
/// connection.queueReply(reply.finish())
/// ```
extension ReplyWriter {
  /// `,"state":{…},"seq":N`
  mutating func state(_ snapshot: StateSnapshot) {
    key("state")
    stateValueAndSequence(snapshot)
  }

  /// `{…},"seq":N`: the rest of a state after its key.
  private mutating func stateValueAndSequence(_ snapshot: StateSnapshot) {
    writer.raw(snapshot.json)
    integer("seq", Int64(clamping: snapshot.sequence))
  }

  /// `,"outcome":"…","state":{…},"seq":N`: what every event's reply carries (a failed one's
  /// after its error; the others are written by `OutcomeLine`).
  mutating func outcome(_ outcome: EventOutcome, _ snapshot: StateSnapshot) {
    switch outcome {
    case .handled: writer.ascii(#","outcome":"handled","state":"#)
    case .dropped: writer.ascii(#","outcome":"dropped","state":"#)
    case .cancelled: writer.ascii(#","outcome":"cancelled","state":"#)
    case .failed: writer.ascii(#","outcome":"failed","state":"#)
    }
    stateValueAndSequence(snapshot)
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
