import BlocCore
import BlocJournal
import FeatureKit
import Foundation
import StateServer
import Testing
import Wire

/// A turn that replies for several features reads each of them once and keeps their reads
/// apart (``StoredStates``): pipelined sends to two features on one connection, both routes,
/// give the same bytes, each reply showing its own feature's stored state, which holds its
/// change (the newest: a turn's replies are written after its batch).
@Suite struct TurnOfSeveralFeaturesTests {
  @Test func eachFeaturesRepliesShowItsOwnState() async throws {
    var script: [String] = []
    for round in 1...5 {
      script.append(
        #"{"id":"t\#(round)","op":"send","feature":"tally","event":{"type":"add","by":100}}"#)
      script.append(#"{"id":"c\#(round)","op":"send","feature":"second","event":{"type":"add"}}"#)
      script.append(
        #"{"id":"u\#(round)","op":"send","feature":"tally","event":{"type":"add","by":100}}"#)
    }
    var replies: [[String]] = []
    for straightThrough in [true, false] {
      let directory = TemporaryDirectory()
      let journal = try JournalStorage(
        directory: URL(fileURLWithPath: directory.path + "/state"), sync: .deferred)
      defer { journal.close() }
      let second = Bloc<TallyEvent, TallyState>(
        initialState: TallyState(), persistence: Persistence(storage: journal, key: "second")
      ) { bloc in
        bloc.on("add") { _, emit in emit.update { $0.count += 1 } }
      }
      var lines: [String] = []
      try await withDispatcher(
        batching: journal, straightThrough: straightThrough,
        register: { registry in
          registry.register(TallyFeature.self, StraightThroughTests.composedTally(journal))
          registry.register(SecondTally.self, second)
        }
      ) { path, _, _ in
        let client = try TestClient(path: path)
        try client.write(script.map { $0 + "\n" }.joined())
        client.shutdownWrite()
        lines = try await client.readToEnd()
      }
      replies.append(lines)
    }
    #expect(replies[0] == replies[1])
    let parsed = try replies[0].map { try JSON(parsing: $0) }
    #expect(parsed.count == script.count)
    for (index, reply) in parsed.enumerated() {
      let round = index / 3 + 1
      // The tally steps by 100, the other by 1: each reply shows its own feature's count.
      let (least, most) = [(200 * round - 100, 1000), (round, 5), (200 * round, 1000)][index % 3]
      let count = reply["state"]?["count"]?.intValue ?? -1
      #expect(reply["ok"] == true)
      #expect(count >= least && count <= most, "\(reply)")
      #expect(index % 3 == 1 || count % 100 == 0, "\(reply)")
    }
  }
}

/// The tally again, under another name: a second feature.
private enum SecondTally: FeatureDescription {
  typealias Event = TallyEvent
  typealias State = TallyState
  static let name = "second"
  static let summary = "A second test tally."
}
