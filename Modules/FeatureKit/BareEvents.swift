import WireJSON

/// The whole JSON of each event without fields (`{"type":"increment"}`), written once when its
/// events are declared, found by its enum case's tag (``EnumCases``): writing such an event
/// is one copy of prepared bytes straight into the buffer's spare capacity, in code that is
/// not generic.
@usableFromInline
struct BareEvents: Sendable {
  /// The enum's metadata, as a bit pattern (a pointer is not `Sendable`); 0 when its tags
  /// cannot be read.
  private let metadata: UInt
  /// Every such event's JSON, one after another.
  private let text: [UInt8]
  /// Where each case's JSON is in `text`, by tag; empty for a case with fields or none.
  private let runs: [Range<Int>]

  /// `byTag`: the declared event of each case, by tag (nil when tags cannot be read);
  /// `cases`: the declared events.
  init<Event>(_: Event.Type, byTag: [TaggedCase]?, cases: [EventCase<Event>]) {
    guard let byTag else {
      (metadata, text, runs) = (0, [], [])
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
    self.text = text
  }

  /// Appends the JSON of the event at `event` when it is one without fields; false, writing
  /// nothing, otherwise.
  @usableFromInline
  func write(at event: UnsafeRawPointer, into bytes: inout [UInt8]) -> Bool {
    guard let metadata = UnsafeRawPointer(bitPattern: metadata) else { return false }
    let tag = EnumCases.tag(at: event, metadata: metadata)
    guard tag < runs.count else { return false }
    let run = runs[tag]
    guard !run.isEmpty else { return false }
    text.withUnsafeBufferPointer { text in
      bytes.append(upTo: run.count) { start in
        start.update(from: text.baseAddress! + run.lowerBound, count: run.count)
        return run.count
      }
    }
    return true
  }
}
