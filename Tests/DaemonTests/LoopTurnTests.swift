import BlocCore
import StateServer
import Testing

/// The loop tells its delegate where each turn begins and ends, so work gathered over a turn
/// (the daemon's journal batch) can be finished once for all the turn's requests.
@Suite("Loop turns")
struct LoopTurnTests {
  @Test func framesOfATurnArriveBetweenItsBeginningAndItsEnd() async throws {
    let delegate = TurnDelegate()
    try await withServer(delegate: delegate) { _, path in
      let client = try TestClient(path: path)
      try client.write((0..<200).map { "frame \($0)\n" }.joined())
      #expect(try await client.readLines(200) == (0..<200).map { "frame \($0)" })
    }
    let calls = delegate.calls.withLock { $0 }
    var open = false
    for call in calls {
      switch call {
      case "begin":
        #expect(!open, "turns do not nest")
        open = true
      case "end":
        #expect(open)
        open = false
      default:
        #expect(open, "\(call) was delivered outside a turn")
      }
    }
    #expect(calls.filter { $0.hasPrefix("frame") }.count == 200)
  }

  @Test func repliesQueuedAtATurnsEndAreWrittenWithoutWaitingForTheNextTurn() async throws {
    // Like the journal: replies exist only once the turn's batch is written, at its end. The
    // loop must write them before it sleeps, or each would wait for the client's next request.
    let delegate = TurnDelegate(replyAtTurnEnd: true)
    try await withServer(delegate: delegate) { _, path in
      let client = try TestClient(path: path)
      for round in 0..<20 {
        try client.write("ping \(round)\n")
        #expect(try await client.readLine(timeout: .seconds(30)) == "ping \(round)")
      }
    }
  }
}

/// Records turns and frames; echoes each frame at once or, with `replyAtTurnEnd`, when the turn
/// ends.
private final class TurnDelegate: ConnectionDelegate {
  let calls = Locked<[String]>([])
  private let held = Locked<[(Connection, [UInt8])]>([])
  private let replyAtTurnEnd: Bool

  init(replyAtTurnEnd: Bool = false) { self.replyAtTurnEnd = replyAtTurnEnd }

  func loopTurnWillBegin() { calls.withLock { $0.append("begin") } }

  func loopTurnDidEnd() {
    calls.withLock { $0.append("end") }
    for (connection, line) in held.withLock({ held in
      defer { held = [] }; return held
    }) {
      connection.queueReply(line)
    }
  }

  func connection(_ connection: Connection, didReceive frame: [UInt8]) {
    calls.withLock { $0.append(String(decoding: frame, as: UTF8.self)) }
    if replyAtTurnEnd {
      held.withLock { $0.append((connection, frame + [10])) }
    } else {
      connection.queueReply(frame + [10])
    }
  }

  func connection(_ connection: Connection, didReceiveOversizedFrame byteCount: Int) {}
}
