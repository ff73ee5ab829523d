import Foundation

/// A state (or an event) that writes its own JSON text: compact, one line, members sorted by
/// their UTF-8 bytes, strings with `"`, `\` and control characters escaped (`/` as it is).
/// A persisted bloc stores such a state without any `Encoder`; FeatureKit's declared states and
/// events conform, writing with the daemon's one JSON writer, so a state stored by the journal
/// and sent to clients is written once (the daemon takes the stored bytes for its replies).
public protocol WritesJSON: Sendable {
  /// Appends the value's JSON to `bytes`. Throws for a value JSON cannot express (a
  /// non-finite number); nothing is stored then.
  func writeJSON(into bytes: inout [UInt8]) throws
}

/// Writes the events of one type (a bloc's `Event`) that writes its own JSON, decided once per
/// bloc: a stored change's event is then written without asking the runtime, change after
/// change, whether its type conforms to ``WritesJSON`` (a conformance lookup per change).
struct EventWriter: Sendable {
  /// Writes `event` when it is of the type this writer was made for; false otherwise.
  let write: @Sendable (any Sendable, inout [UInt8]) throws -> Bool

  /// The writer of `Event`s; nil when they do not write their own JSON.
  static func of<Event>(_ type: Event.Type) -> EventWriter? {
    guard let own = type as? any WritesJSON.Type else { return nil }
    return writer(own)
  }

  private static func writer<Own: WritesJSON>(_: Own.Type) -> EventWriter {
    EventWriter { event, bytes in try write(event, as: Own.self, into: &bytes) }
  }

  /// Writes `event` when its type is `Own`: the two types compared (metadata pointers), then
  /// the value read as an `Own` where it is. No dynamic cast: `event as? Own` costs a cast
  /// and the runtime metadata of an optional `Own`, per event. (An event of a subclass of
  /// `Own` is not `Own` here: the caller writes it the general way.)
  private static func write<Event, Own: WritesJSON>(
    _ event: Event, as _: Own.Type, into bytes: inout [UInt8]
  ) throws -> Bool {
    guard Event.self == Own.self else { return false }
    try withUnsafePointer(to: event) { pointer in
      try UnsafeRawPointer(pointer).assumingMemoryBound(to: Own.self).pointee.writeJSON(
        into: &bytes)
    }
    return true
  }
}

/// Writes a stored state: `{"cause":…,"event":…,"schemaVersion":N,"seq":N,"state":…,
/// "target":N,"time":N}` (`Stored(schemaVersion:state:)`'s members, plus what the change
/// tells), members sorted like every JSON object the package writes. The state and the event
/// write themselves when they can (``WritesJSON``); any other value is written by
/// `JSONEncoder` (sorted keys, slashes unescaped: the same text for JSON's own types).
/// Records written before either way (with `\/`, say) read back all the same: reading is
/// `JSONDecoder`'s.
enum StoredRecord {
  /// `,"schemaVersion":N,"seq":`, the part of every record of one schema version between the
  /// cause and the sequence number: written once per persisted bloc, appended in one piece.
  static func version(_ schemaVersion: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    append(#","schemaVersion":"#, to: &bytes)
    digits(Int64(schemaVersion), into: &bytes)
    append(#","seq":"#, to: &bytes)
    return bytes
  }

  /// Appends the stored text of `change` to `bytes` (`version`: its schema version's part,
  /// ``version(_:)``), its state written by `state` and its event by `events` when it can;
  /// returns where the state's own JSON lies in `bytes`. Appending to the caller's buffer lets
  /// one buffer serve every change of a write.
  static func write(
    version: [UInt8], change: StoredChange, events: EventWriter?, into bytes: inout [UInt8],
    state: (inout [UInt8]) throws -> Void
  ) throws -> Range<Int> {
    if let cause = change.cause {
      append(opening(cause), to: &bytes)
      if case .event(let event) = cause { writeEvent(event, events, into: &bytes) }
      bytes.append(contentsOf: version)
    } else {
      bytes.append(0x7B)
      bytes.append(contentsOf: version[1...])  // no comma after the brace
    }
    digits(change.sequence, into: &bytes)
    append(#","state":"#, to: &bytes)
    let start = bytes.count
    try state(&bytes)
    let end = bytes.count
    if case .goto(let target) = change.cause {
      append(#","target":"#, to: &bytes)
      digits(target, into: &bytes)
    }
    if let time = change.time {
      append(#","time":"#, to: &bytes)
      digits(time, into: &bytes)
    }
    bytes.append(0x7D)
    return start..<end
  }

  /// The start of a record made for `cause`: `{"cause":"` and ``ChangeCause/name``.
  private static func opening(_ cause: ChangeCause) -> StaticString {
    switch cause {
    case .event: #"{"cause":"event""#
    case .emit: #"{"cause":"emit""#
    case .undo: #"{"cause":"undo""#
    case .redo: #"{"cause":"redo""#
    case .goto: #"{"cause":"goto""#
    case .restore: #"{"cause":"restore""#
    case .migration: #"{"cause":"migration""#
    }
  }

  /// Appends a literal's bytes as they are (no `String` in between, whose UTF-8 view is copied
  /// out of the string first).
  private static func append(_ text: StaticString, to bytes: inout [UInt8]) {
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// `,"event":…` when the event can be written; nothing otherwise (the change is stored all
  /// the same, without its event).
  private static func writeEvent(
    _ event: any Sendable, _ events: EventWriter?, into bytes: inout [UInt8]
  ) {
    let start = bytes.count
    append(#","event":"#, to: &bytes)
    do {
      if let events, try events.write(event, &bytes) {
        // Written by the bloc's own event type.
      } else if let writes = event as? any WritesJSON {
        try writes.writeJSON(into: &bytes)
      } else if let encodable = event as? any Encodable {
        bytes += try encoder().encode(encodable)
      } else {
        bytes.removeSubrange(start...)
      }
    } catch {
      bytes.removeSubrange(start...)
    }
  }

  /// How a `State` writes its JSON: itself when it can, else through `JSONEncoder`. Decided
  /// once per persisted bloc.
  static func stateWriter<State: Encodable & Sendable>(
    _ type: State.Type
  ) -> @Sendable (State, inout [UInt8]) throws -> Void {
    if let writes = type as? any WritesJSON.Type { return ownWriter(writes) }
    return { state, bytes in bytes += try encoder().encode(state) }
  }

  /// `State` is `Own` (``stateWriter(_:)`` opened it): each state is read as an `Own` where it
  /// is, with no dynamic cast per state.
  private static func ownWriter<State, Own: WritesJSON>(
    _: Own.Type
  ) -> @Sendable (State, inout [UInt8]) throws -> Void {
    precondition(State.self == Own.self, "a state writer for another type")
    return { state, bytes in
      try withUnsafePointer(to: state) { pointer in
        try UnsafeRawPointer(pointer).assumingMemoryBound(to: Own.self).pointee.writeJSON(
          into: &bytes)
      }
    }
  }

  /// `JSONEncoder` set to write the package's text for JSON's own types.
  private static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  /// The decimal digits of `value`, written in place (no intermediate string).
  private static func digits(_ value: Int64, into bytes: inout [UInt8]) {
    if value < 0 { bytes.append(0x2D) }
    digits(value.magnitude, into: &bytes)
  }

  private static func digits(_ value: UInt64, into bytes: inout [UInt8]) {
    var magnitude = value
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
      var start = 20
      repeat {
        start -= 1
        buffer[start] = 0x30 + UInt8(magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<20]))
    }
  }
}
