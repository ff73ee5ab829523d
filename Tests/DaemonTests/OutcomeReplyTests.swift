// Every send's reply is written by ReplyWriter.appendOutcome, on the stack around the state's
// bytes: the bytes the protocol's reply form gives, member by member, for every id, outcome and
// size of state.
import BlocCore
import Testing
import Wire

@testable import StateServer

@Suite struct OutcomeReplyTests {
  static let ids: [RequestID?] = [
    nil, 0, 7, -1, 10, 99, 100, 1001, 1_234_567_890_123, .number(.max), .number(.min),
    "", "a", "quote\" back\\ line\n tab\t \u{1}", "é✓",
  ]
  struct Refused: Error, CustomStringConvertible {
    var description: String { "refused: \"no\"\n" }
  }
  static let outcomes: [EventOutcome] = [
    .handled, .dropped, .cancelled, .failed(Refused()),
    .failed(PersistenceError.writeFailed(key: "counter", reason: "disk \"full\"")),
  ]
  static let snapshots = [
    StateSnapshot(sequence: 0, json: Array(#"{"count":0}"#.utf8)),
    StateSnapshot(sequence: 9, json: Array(#"{"count":-12,"label":"a\"b"}"#.utf8)),
    StateSnapshot(sequence: 10, json: Array("{}".utf8)),
    StateSnapshot(sequence: 12_345_678_901, json: Array(#"{"n":1}"#.utf8)),
    StateSnapshot(sequence: .max, json: Array(#"{"list":[1,2,3]}"#.utf8)),
    // Around the size written inline on the stack, and beyond it.
    StateSnapshot(sequence: 5, json: Self.state(bytes: ReplyWriter.inlineStateBytes)),
    StateSnapshot(sequence: 6, json: Self.state(bytes: ReplyWriter.inlineStateBytes + 1)),
    StateSnapshot(sequence: 7, json: Self.state(bytes: 5000)),
  ]

  /// `{"s":"xx…"}`, `count` bytes long.
  static func state(bytes count: Int) -> [UInt8] {
    Array(#"{"s":""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: count - 8)
      + Array(#""}"#.utf8)
  }

  /// The reply as the protocol spells it, written member by member.
  static func expected(
    _ id: RequestID?, _ outcome: EventOutcome, _ snapshot: StateSnapshot
  ) -> [UInt8] {
    var members = JSONWriter()
    if let id {
      members.ascii(#""id":"#)
      members.json(id.json)
      members.byte(UInt8(ascii: ","))
    }
    if case .failed(let error) = outcome {
      let code = error is PersistenceError ? "storage_failed" : "event_failed"
      members.ascii(#""ok":false,"error":"#)
      members.json(["code": .string(code), "message": .string(String(describing: error))])
    } else {
      members.ascii(#""ok":true"#)
    }
    members.ascii(#","outcome":"#)
    members.string(outcome.name)
    members.ascii(#","state":"#)
    members.raw(snapshot.json)
    members.ascii(#","seq":"#)
    members.integer(Int64(clamping: snapshot.sequence))
    return Array("{".utf8) + members.bytes + Array("}\n".utf8)
  }

  @Test func writesEveryOutcomeAsTheProtocolSpellsIt() {
    for id in Self.ids {
      for outcome in Self.outcomes {
        for snapshot in Self.snapshots {
          var line: [UInt8] = []
          ReplyWriter.appendOutcome(id: id, outcome, snapshot, to: &line)
          #expect(
            String(decoding: line, as: UTF8.self)
              == String(decoding: Self.expected(id, outcome, snapshot), as: UTF8.self))
        }
      }
    }
  }

  @Test func writesTheKnownLine() {
    var line: [UInt8] = []
    ReplyWriter.appendOutcome(id: 42, .handled, Self.snapshots[0], to: &line)
    #expect(
      String(decoding: line, as: UTF8.self)
        == #"{"id":42,"ok":true,"outcome":"handled","state":{"count":0},"seq":0}"# + "\n")
  }

  @Test func appendsAfterTheLinesAlreadyThere() {
    for id: RequestID in [3, "x"] {
      var lines = Array("{\"ok\":true}\n".utf8)
      let before = lines
      ReplyWriter.appendOutcome(id: id, .failed(Refused()), Self.snapshots[6], to: &lines)
      #expect(lines == before + Self.expected(id, .failed(Refused()), Self.snapshots[6]))
    }
  }

  @Test func everyReplyStartsWithTheSameHead() {
    for id in Self.ids {
      for ok in [true, false] {
        var reply = ReplyWriter(id: id, ok: ok)
        var head = "{"
        if let id {
          head += #""id":"# + String(decoding: id.json.serialized(), as: UTF8.self) + ","
        }
        head += ok ? #""ok":true"# : #""ok":false"#
        #expect(String(decoding: reply.finish(), as: UTF8.self) == head + "}\n")
      }
    }
  }
}
