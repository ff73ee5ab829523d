// Every send's reply is written by OutcomeLine, on the stack around the state's bytes, instead
// of ReplyWriter's member-by-member appends: the same bytes, for every id and outcome it takes.
import BlocCore
import Testing
import Wire

@testable import StateServer

@Suite struct OutcomeLineTests {
  static let ids: [RequestID?] = [
    nil, 0, 7, -1, 1001, 1_234_567_890_123, .number(.max), .number(.min),
  ]
  static let outcomes: [EventOutcome] = [.handled, .dropped, .cancelled]
  static let snapshots = [
    StateSnapshot(sequence: 0, json: Array(#"{"count":0}"#.utf8)),
    StateSnapshot(sequence: 9, json: Array(#"{"count":-12,"label":"a\"b"}"#.utf8)),
    StateSnapshot(sequence: 10, json: Array("{}".utf8)),
    StateSnapshot(sequence: .max, json: Array(#"{"list":[1,2,3]}"#.utf8)),
    // Around the size written inline on the stack, and beyond it.
    StateSnapshot(sequence: 5, json: Self.state(bytes: OutcomeLine.inlineStateBytes)),
    StateSnapshot(sequence: 6, json: Self.state(bytes: OutcomeLine.inlineStateBytes + 1)),
    StateSnapshot(sequence: 7, json: Self.state(bytes: 5000)),
  ]

  /// `{"s":"xx…"}`, `count` bytes long.
  static func state(bytes count: Int) -> [UInt8] {
    Array(#"{"s":""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: count - 8)
      + Array(#""}"#.utf8)
  }

  /// What ReplyWriter writes for the same reply.
  static func written(
    _ id: RequestID?, _ outcome: EventOutcome, _ snapshot: StateSnapshot
  )
    -> [UInt8]
  {
    var reply = ReplyWriter(id: id, ok: true)
    reply.outcome(outcome, snapshot)
    return reply.finish()
  }

  @Test func writesWhatReplyWriterWrites() {
    for id in Self.ids {
      for outcome in Self.outcomes {
        for snapshot in Self.snapshots {
          var line: [UInt8] = []
          #expect(OutcomeLine.append(id: id, outcome, snapshot, to: &line))
          #expect(
            String(decoding: line, as: UTF8.self)
              == String(decoding: Self.written(id, outcome, snapshot), as: UTF8.self))
        }
      }
    }
  }

  @Test func appendsAfterTheLinesAlreadyThere() {
    var lines = Array("{\"ok\":true}\n".utf8)
    let before = lines
    #expect(OutcomeLine.append(id: 3, .handled, Self.snapshots[1], to: &lines))
    #expect(lines == before + Self.written(3, .handled, Self.snapshots[1]))
  }

  @Test func leavesFailuresAndStringIDsToReplyWriter() {
    struct Failure: Error {}
    var line: [UInt8] = []
    #expect(!OutcomeLine.append(id: 1, .failed(Failure()), Self.snapshots[0], to: &line))
    #expect(!OutcomeLine.append(id: "a", .handled, Self.snapshots[0], to: &line))
    #expect(line.isEmpty)
  }
}
