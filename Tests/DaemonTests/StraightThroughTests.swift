import BlocCore
import BlocJournal
import Foundation
import Glibc
import StateServer
import Testing
import Wire

/// Events handled straight through the loop turn (an idle bloc, a synchronous handler, nothing
/// queued for the connection) and events that take the queue give the same replies, in the
/// same order, with the same pushes; a change the storage refuses is never replied as ok.
/// Each test runs the same requests both ways (`RequestDispatcher(straightThrough:)`).
@Suite("Straight through")
struct StraightThroughTests {
  enum Storage: String, CaseIterable {
    case none, memory, journalDeferred, journalAlways
  }

  /// Pipelined requests of every kind on one connection, both routes: the same bytes. (No
  /// suspending handler, nor a storage that stores on a thread of its own: a reply shows the
  /// state stored when it is written, which then depends on another thread's timing, on
  /// either route.)
  @Test(arguments: [Storage.none, .journalDeferred, .journalAlways])
  func bothRoutesGiveTheSameReplies(_ storage: Storage) async throws {
    let script = [
      #"{"id":1,"op":"send","feature":"tally","event":{"type":"add"}}"#,
      #"{"id":2,"op":"send","feature":"tally","event":{"type":"add","by":2}}"#,
      #"{"id":3,"op":"get","feature":"tally"}"#,
      #"{"id":4,"op":"send","feature":"tally","event":{"type":"add","by":0}}"#,
      "not json",
      #"{"id":5,"op":"send","feature":"tally","event":{"type":"fail","message":"no"}}"#,
      #"{"id":7,"op":"send","feature":"tally","event":{"type":"label","text":"x"}}"#,
      #"{"id":8,"op":"undo","feature":"tally"}"#,
      #"{"id":9,"op":"send","feature":"tally","event":{"type":"set","value":5}}"#,
      #"{"id":10,"op":"send","feature":"tally","event":{"type":"set","value":5}}"#,
      #"{"id":11,"op":"ping"}"#,
      #"{"id":12,"op":"send","feature":"tally","event":{"type":"add"}}"#,
      #"{"id":13,"op":"get","feature":"tally"}"#,
    ]
    var replies: [[String]] = []
    for straightThrough in [true, false] {
      let lines = try await Self.serve(storage, straightThrough: straightThrough) { path, _ in
        let client = try TestClient(path: path)
        try client.write(script.map { $0 + "\n" }.joined())
        client.shutdownWrite()
        return try await client.readToEnd()
      }
      #expect(lines.count == script.count)
      replies.append(lines)
    }
    #expect(replies[0] == replies[1])
    let last = try JSON(parsing: try #require(replies[0].last))
    #expect(last["state"] == ["count": 6, "label": ""])
  }

  /// Several connections each sending in the same turns: every reply comes, in order.
  @Test(arguments: [Storage.journalDeferred, .journalAlways])
  func manyConnectionsPipeliningGetEveryReplyInOrder(_ storage: Storage) async throws {
    for straightThrough in [true, false] {
      let total = try await Self.serve(storage, straightThrough: straightThrough) { path, _ in
        let clients = try (0..<8).map { _ in try TestClient(path: path) }
        let perClient = 50
        for client in clients {
          try client.write(
            (1...perClient).map {
              #"{"id":\#($0),"op":"send","feature":"tally","event":{"type":"add"}}"# + "\n"
            }.joined())
        }
        for client in clients {
          let lines = try await client.readLines(perClient)
          for (index, line) in lines.enumerated() {
            let reply = try JSON(parsing: line)
            #expect(reply.int("id") == index + 1)
            #expect(reply["ok"] == true)
          }
        }
        let get = try await clients[0].call(#"{"op":"get","feature":"tally"}"#)
        return get["state"]?["count"]?.intValue ?? -1
      }
      #expect(total == 8 * 50)
    }
  }

  /// Large frames run beside the loop (here every frame of 200 bytes or more) while the turn
  /// replies of the frames before them are not written yet: each reply keeps its place, and
  /// the client's end closes the connection only once every reply is sent.
  @Test func largeFramesKeepTheirPlaceAmongTurnReplies() async throws {
    let directory = TemporaryDirectory()
    let journal = try JournalStorage(
      directory: URL(fileURLWithPath: directory.path + "/state"), sync: .deferred)
    defer { journal.close() }
    let pad = String(repeating: "x", count: 200)
    let rounds = 100
    var script = ""
    var ids: [String] = []
    for round in 0..<rounds {
      script += #"{"id":"a\#(round)","op":"send","feature":"tally","event":{"type":"add"}}"# + "\n"
      script += #"{"id":"p\#(round)","op":"ping","pad":"\#(pad)"}"# + "\n"
      script += #"{"id":"b\#(round)","op":"send","feature":"tally","event":{"type":"add"}}"# + "\n"
      ids += ["a\(round)", "p\(round)", "b\(round)"]
    }
    try await withDispatcher(
      largeFrameBytes: 200, batching: journal,
      register: { $0.register(TallyFeature.self, Self.composedTally(journal)) }
    ) { path, _, _ in
      let client = try TestClient(path: path)
      try client.write(script)
      client.shutdownWrite()
      let replies = try await client.readToEnd().map { try JSON(parsing: $0) }
      #expect(replies.compactMap { $0.string("id") } == ids)
      #expect(replies.allSatisfy { $0["ok"] == true })
      #expect(replies.last?["state"]?["count"] == JSON(2 * rounds))
    }
  }

  /// A watcher that sends sees the push of its change before the reply, as before.
  @Test(arguments: Storage.allCases)
  func aWatchersPushComesBeforeTheReply(_ storage: Storage) async throws {
    var seen: [[String]] = []
    for straightThrough in [true, false] {
      let lines = try await Self.serve(storage, straightThrough: straightThrough) { path, _ in
        let client = try TestClient(path: path)
        _ = try await client.call(#"{"id":1,"op":"watch","feature":"tally"}"#)
        try client.write(#"{"id":2,"op":"send","feature":"tally","event":{"type":"add"}}"# + "\n")
        return try await client.readLines(2)
      }
      #expect(lines.first?.hasPrefix(#"{"push":"state""#) == true, "\(lines)")
      #expect(lines.last?.hasPrefix(#"{"id":2,"ok":true"#) == true, "\(lines)")
      seen.append(lines)
    }
    #expect(seen[0] == seen[1])
  }

  /// A change its storage refuses is replied `storage_failed` with the stored state, never
  /// as ok; the next change does not build on it.
  @Test func aRefusedChangeIsNeverRepliedAsOk() async throws {
    var replies: [[String]] = []
    for straightThrough in [true, false] {
      let disk = FullDisk()
      let lines = try await Self.serve(
        storage: disk, batching: nil, straightThrough: straightThrough
      ) { path, _ in
        let client = try TestClient(path: path)
        var lines: [String] = []
        for request in [
          #"{"id":1,"op":"send","feature":"tally","event":{"type":"add"}}"#,
          "full",
          #"{"id":2,"op":"send","feature":"tally","event":{"type":"add"}}"#,
          #"{"id":3,"op":"send","feature":"tally","event":{"type":"add"}}"#,
          #"{"id":4,"op":"get","feature":"tally"}"#,
          "room",
          #"{"id":5,"op":"send","feature":"tally","event":{"type":"add"}}"#,
        ] {
          switch request {
          case "full": disk.full = true
          case "room": disk.full = false
          default: lines.append(try #require(try await client.call(raw: request)))
          }
        }
        return lines
      }
      let parsed = try lines.map { try JSON(parsing: $0) }
      #expect(parsed[0]["state"]?["count"] == 1)
      for refused in parsed[1...2] {
        #expect(refused["ok"] == false)
        #expect(refused["error"]?["code"] == "storage_failed")
        #expect(refused["outcome"] == "failed")
        #expect(refused["state"]?["count"] == 1)
        #expect(refused.int("seq") == 1)
      }
      #expect(parsed[3]["state"]?["count"] == 1)
      #expect(parsed[4]["ok"] == true)
      #expect(parsed[4]["state"]?["count"] == 2)
      replies.append(lines)
    }
    #expect(replies[0] == replies[1])
  }

  /// The journal refuses the turn's batch (closed here; a full disk in StorageFaultTests and
  /// the reply fixture): the replies written after the turn say so.
  @Test func aBatchTheJournalRefusesIsRepliedStorageFailed() async throws {
    var replies: [[String]] = []
    for straightThrough in [true, false] {
      let directory = TemporaryDirectory()
      let journal = try JournalStorage(
        directory: URL(fileURLWithPath: directory.path + "/state"), sync: .deferred)
      let lines = try await Self.serve(
        storage: journal, batching: journal, straightThrough: straightThrough
      ) { path, _ in
        let client = try TestClient(path: path)
        var lines = [
          try #require(
            try await client.call(
              raw: #"{"id":1,"op":"send","feature":"tally","event":{"type":"add"}}"#))
        ]
        journal.close()
        try client.write(
          #"{"id":2,"op":"send","feature":"tally","event":{"type":"add"}}"# + "\n"
            + #"{"id":3,"op":"get","feature":"tally"}"# + "\n")
        lines += try await client.readLines(2)
        return lines
      }
      let refused = try JSON(parsing: lines[1])
      #expect(refused["error"]?["code"] == "storage_failed")
      #expect(refused["state"]?["count"] == 1)
      #expect(try JSON(parsing: lines[2])["state"]?["count"] == 1)
      replies.append(lines)
    }
    #expect(replies[0] == replies[1])
  }

  // MARK: Support

  /// Runs `body` against an in-process daemon serving a tally built by composition (a plain
  /// `Bloc`, which can take the straight route; a subclass never does) on `storage`.
  static func serve<T>(
    _ storage: Storage, straightThrough: Bool,
    _ body: (String, FeatureRegistry) async throws -> T
  ) async throws -> T {
    let directory = TemporaryDirectory()
    switch storage {
    case .none:
      return try await serve(
        storage: nil, batching: nil, straightThrough: straightThrough, body)
    case .memory:
      return try await serve(
        storage: InMemoryStorage(), batching: nil, straightThrough: straightThrough, body)
    case .journalDeferred, .journalAlways:
      let journal = try JournalStorage(
        directory: URL(fileURLWithPath: directory.path + "/state"),
        sync: storage == .journalAlways ? .always : .deferred)
      defer { journal.close() }
      return try await serve(
        storage: journal, batching: journal, straightThrough: straightThrough, body)
    }
  }

  static func serve<T>(
    storage: (any BlocStorage)?, batching: (any WriteBatching)?, straightThrough: Bool,
    _ body: (String, FeatureRegistry) async throws -> T
  ) async throws -> T {
    var result: T?
    try await withDispatcher(
      batching: batching, straightThrough: straightThrough,
      register: { registry in registry.register(TallyFeature.self, composedTally(storage)) }
    ) { path, _, registry in
      result = try await body(path, registry)
    }
    return try #require(result)
  }

  static func composedTally(_ storage: (any BlocStorage)?) -> Bloc<TallyEvent, TallyState> {
    Bloc(
      initialState: TallyState(), history: .limit(50),
      persistence: storage.map { TallyPersistence.make($0) }
    ) { bloc in
      bloc.on("add") { event, emit in emit.update { $0.count += event.by ?? 1 } }
      bloc.on("set") { event, emit in emit.update { $0.count = event.value ?? 0 } }
      bloc.on("fail") { event, _ in throw TallyFailure(description: event.message ?? "failed") }
      bloc.on("label") { event, emit in emit.update { $0.label = event.text ?? "" } }
      bloc.on("slow") { event, emit in
        try await Task.sleep(for: .milliseconds(event.milliseconds ?? 0))
        emit.update { $0.count += 1 }
      }
    }
  }
}

/// Keeps values in memory and refuses every write while `full` is set, as a full disk does.
private final class FullDisk: BlocStorage {
  let inner = InMemoryStorage()
  private let isFull = Locked(false)

  var full: Bool {
    get { isFull.withLock { $0 } }
    set { isFull.withLock { $0 = newValue } }
  }

  func read(_ key: String) throws -> Data? { try inner.read(key) }
  func write(_ key: String, _ data: Data) throws {
    if full { throw PersistenceError.writeFailed(key: key, reason: "No space left on device") }
    try inner.write(key, data)
  }
  func remove(_ key: String) throws { try inner.remove(key) }
  func keepAside(_ key: String) throws -> String { try inner.keepAside(key) }
}

extension TestClient {
  /// Sends one request line and returns the next line as it came.
  fileprivate func call(raw request: String) async throws -> String? {
    try write(request + "\n")
    return try await readLine()
  }
}
