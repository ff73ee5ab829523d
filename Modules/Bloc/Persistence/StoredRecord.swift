import Foundation
import SystemCalls

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
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
      let end = buffer.baseAddress! + 20
      let start = digits(Int64(schemaVersion), before: end)
      bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: end - start))
    }
    append(#","seq":"#, to: &bytes)
    return bytes
  }

  /// Appends the stored text of `change` to `bytes` (`version`: its schema version's part,
  /// ``version(_:)``), its state written by `state` and its event by `events` when it can;
  /// returns where the state's own JSON lies in `bytes`. Appending to the caller's buffer lets
  /// one buffer serve every change of a write. The record's own parts go in three appends
  /// (the cause's opening, the version and sequence number up to the state, what follows the
  /// state), numbers written in place: each `Array.append(contentsOf:)` costs about as much
  /// as writing a dozen digits.
  static func write(
    version: [UInt8], change: StoredChange, events: EventWriter?, into bytes: inout [UInt8],
    state: (inout [UInt8]) throws -> Void
  ) throws -> Range<Int> {
    switch change.kind {
    case .none: break
    case .event:
      append(#"{"cause":"event","event":"#, to: &bytes)
      writeEvent(change.event, events, into: &bytes)
    case let kind: append(opening(kind), to: &bytes)
    }
    head(version, change.sequence, braced: change.kind == .none, into: &bytes)
    let start = bytes.count
    try state(&bytes)
    let end = bytes.count
    if change.kind != .goto, change.time == nil {
      bytes.append(0x7D)
    } else {
      tail(change, into: &bytes)
    }
    return start..<end
  }

  /// The start of a record made for a cause of `kind` other than `event` (whose opening runs
  /// on into its event): `{"cause":"` and ``ChangeCause/name``.
  private static func opening(_ kind: StoredChange.Kind) -> StaticString {
    switch kind {
    case .none, .event: #"{"cause":"event""#
    case .emit: #"{"cause":"emit""#
    case .undo: #"{"cause":"undo""#
    case .redo: #"{"cause":"redo""#
    case .goto: #"{"cause":"goto""#
    case .restore: #"{"cause":"restore""#
    case .migration: #"{"cause":"migration""#
    }
  }

  /// Appends `{` (`braced`: a record without a cause) or nothing, the version's part (without
  /// its leading comma after a brace), `sequence` and `,"state":`, in one append. Written from
  /// the end backwards, as numbers' digits come: no pass to count them first.
  private static func head(
    _ version: [UInt8], _ sequence: UInt64, braced: Bool, into bytes: inout [UInt8]
  ) {
    // The version's part is at most 44 bytes (a 20-character number), the sequence 20.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 96) { buffer in
      let end = buffer.baseAddress! + 96
      var start = digits(sequence, before: copy(#","state":"#, before: end))
      version.withUnsafeBufferPointer { version in
        if braced {
          start -= version.count - 1
          start.update(from: version.baseAddress! + 1, count: version.count - 1)
          start -= 1
          start[0] = 0x7B
        } else {
          start -= version.count
          start.update(from: version.baseAddress!, count: version.count)
        }
      }
      bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: end - start))
    }
  }

  /// Appends what follows the state: `,"target":N` (a `goto`), `,"time":N` and `}`, in one
  /// append, written from the end backwards.
  private static func tail(_ change: StoredChange, into bytes: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
      let end = buffer.baseAddress! + 64
      var start = end - 1
      start[0] = 0x7D
      if let time = change.time {
        start = copy(#","time":"#, before: digits(time, before: start))
      }
      if change.kind == .goto {
        start = copy(#","target":"#, before: digits(change.target, before: start))
      }
      bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: end - start))
    }
  }

  /// Writes a literal's bytes ending just before `end`; returns where they start.
  private static func copy(
    _ text: StaticString, before end: UnsafeMutablePointer<UInt8>
  ) -> UnsafeMutablePointer<UInt8> {
    let start = end - text.utf8CodeUnitCount
    start.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
    return start
  }

  /// Appends a literal's bytes as they are (no `String` in between, whose UTF-8 view is copied
  /// out of the string first).
  private static func append(_ text: StaticString, to bytes: inout [UInt8]) {
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// The event after `,"event":` (just appended) when it can be written; otherwise that
  /// member goes again (the change is stored all the same, without its event).
  private static func writeEvent(
    _ event: any Sendable, _ events: EventWriter?, into bytes: inout [UInt8]
  ) {
    let start = bytes.count - 9  // `,"event":`, written by the opening
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

  /// Writes the decimal digits of `value` ending just before `end` (at most 20 bytes); returns
  /// where they start (`decimalDigits(_:before:)`, two digits a step).
  private static func digits(
    _ value: Int64, before end: UnsafeMutablePointer<UInt8>
  ) -> UnsafeMutablePointer<UInt8> {
    decimalDigits(value, before: end)
  }

  private static func digits(
    _ value: UInt64, before end: UnsafeMutablePointer<UInt8>
  ) -> UnsafeMutablePointer<UInt8> {
    decimalDigits(value, before: end)
  }
}
