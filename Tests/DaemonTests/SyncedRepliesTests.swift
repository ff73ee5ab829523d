import Foundation
import Testing
import Wire

/// Under `--sync always` a turn that read several clients is synced on the journal's writer
/// while the loop serves on; the replies of its events wait there, and the loop writes them
/// once the sync ends (a change is never replied to before it is stored).
@Suite("Replies after a sync beside the loop")
struct SyncedRepliesTests {
  /// Clients in lockstep (each sends one event, then each reads its reply), so that turns read
  /// several of them: every reply comes, in order, ok, with a state of its round; then
  /// pipelined events and the end of input: every reply, then the close.
  @Test func everyClientGetsEachReplyInOrder() async throws {
    let clientCount = 6
    let rounds = 40
    let pipelined = 10
    let total = try await StraightThroughTests.serve(.journalAlways, straightThrough: true) {
      path, _ in
      let clients = try (0..<clientCount).map { _ in try TestClient(path: path) }
      for round in 1...rounds {
        for client in clients {
          try client.write(
            #"{"id":\#(round),"op":"send","feature":"tally","event":{"type":"add"}}"# + "\n")
        }
        for client in clients {
          let reply = try await client.next()
          #expect(reply.int("id") == round)
          #expect(reply["ok"] == true)
          // The round's state: every earlier round's changes and at least one of this round's
          // (its own), none invented. Not ordered across clients: two clients' events may be
          // read in either order (epoll's ready list), so their replies may show either state.
          let count = reply["state"]?["count"]?.intValue ?? -1
          #expect(
            count > (round - 1) * clientCount && count <= round * clientCount, "\(reply)")
        }
      }
      for client in clients {
        try client.write(
          (1...pipelined).map {
            #"{"id":\#($0),"op":"send","feature":"tally","event":{"type":"add"}}"# + "\n"
          }.joined())
        client.shutdownWrite()
      }
      for client in clients {
        let replies = try await client.readToEnd().map { try JSON(parsing: $0) }
        #expect(replies.compactMap { $0.int("id") } == Array(1...pipelined))
        #expect(replies.allSatisfy { $0["ok"] == true })
      }
      let get = try await TestClient(path: path).call(#"{"op":"get","feature":"tally"}"#)
      return get["state"]?["count"]?.intValue ?? -1
    }
    #expect(total == clientCount * (rounds + pipelined))
  }
}
