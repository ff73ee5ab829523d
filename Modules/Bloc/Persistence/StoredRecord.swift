import Foundation
import SystemCalls

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
  /// ``version(_:)``), its state (at `state`) written by `text` and its event by `events` when
  /// it can; returns where the state's own JSON lies in `bytes`. Appending to the caller's
  /// buffer lets one buffer serve every change of a write. The record's own parts go in three
  /// appends (the cause's opening, the version and sequence number up to the state, what
  /// follows the state), numbers written in place: each `Array.append(contentsOf:)` costs
  /// about as much as writing a dozen digits.
  static func write(
    version: [UInt8], change: StoredChange, events: OwnJSON?, into bytes: inout [UInt8],
    state: UnsafeRawPointer, text: StateText
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
    switch text {
    case .own(let own): try own.write(at: state, into: &bytes)
    case .encoded(let write): try write(state, &bytes)
    }
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
    _ event: any Sendable, _ events: OwnJSON?, into bytes: inout [UInt8]
  ) {
    let start = bytes.count - 9  // `,"event":`, written by the opening
    do {
      if let events, try events.write(event, into: &bytes) {
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

  /// How states of type `State` are written: by themselves when they can, else by
  /// `JSONEncoder`. Decided once per persisted bloc.
  static func text<State: Encodable & Sendable>(of type: State.Type) -> StateText {
    if let own = OwnJSON.of(type) { return .own(own) }
    return .encoded { state, bytes in
      bytes += try encoder().encode(state.assumingMemoryBound(to: State.self).pointee)
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

/// How a persisted bloc's states are written (``StoredRecord/text(of:)``).
enum StateText: Sendable {
  /// By themselves.
  case own(OwnJSON)
  /// By `JSONEncoder`, the state read at the pointer (of the bloc's state type).
  case encoded(@Sendable (UnsafeRawPointer, inout [UInt8]) throws -> Void)
}
