import WireJSON

/// How each case of a declared event enum is written, found by the case's tag (``EnumCases``),
/// in code that is not generic: the whole JSON of an event without fields
/// (`{"type":"increment"}`), written once when its events are declared and copied in one
/// piece straight into the buffer's spare capacity; an event with fields by its
/// ``FieldsWriter`` when its payload can be read in place.
struct EventWriters: Sendable {
  /// The enum's metadata, as a bit pattern (a pointer is not `Sendable`); 0 when its tags
  /// cannot be read.
  private let metadata: UInt
  /// Every event without fields' JSON, one after another.
  private let text: [UInt8]
  /// Where each case's JSON is in `text`, by tag; empty for a case with fields or none. Apart
  /// from `fielded`, so that the usual event's lookup copies nothing to retain.
  private let runs: [Range<Int>]
  /// Each case's writer when it is an event with fields read in place, by tag.
  private let fielded: [FieldsWriter?]

  /// `byTag`: the declared event of each case, by tag (nil when tags cannot be read);
  /// `cases`: the declared events.
  init<Event>(_: Event.Type, byTag: [TaggedCase]?, cases: [EventCase<Event>]) {
    guard let byTag else {
      (metadata, text, runs, fielded) = (0, [], [], [])
      return
    }
    metadata = UInt(bitPattern: unsafeBitCast(Event.self, to: UnsafeRawPointer.self))
    var text: [UInt8] = []
    runs = byTag.map { tagged in
      guard tagged.index >= 0, cases[tagged.index].values == nil else { return 0..<0 }
      let bare = cases[tagged.index].object.bare
      text += bare
      return text.count - bare.count..<text.count
    }
    fielded = byTag.map { tagged in tagged.index >= 0 ? cases[tagged.index].writer : nil }
    self.text = text
  }

  /// Appends the JSON of the event at `event`; false, writing nothing, when its case has no
  /// writer here (it is then written the generic way).
  func write(at event: UnsafeRawPointer, into bytes: inout [UInt8]) throws -> Bool {
    guard let metadata = UnsafeRawPointer(bitPattern: metadata) else { return false }
    let tag = EnumCases.tag(at: event, metadata: metadata)
    guard tag < runs.count else { return false }
    let run = runs[tag]
    guard run.isEmpty else {
      text.withUnsafeBufferPointer { text in
        bytes.append(upTo: run.count) { start in
          start.update(from: text.baseAddress! + run.lowerBound, count: run.count)
          return run.count
        }
      }
      return true
    }
    guard let writer = fielded[tag] else { return false }
    try writer.write(at: event, into: &bytes)
    return true
  }
}
