import Foundation
import Glibc
import Testing
import Wire

/// The real `stated` with its real features, end to end over its socket.
@Suite("stated end to end", .serialized)
struct StatedEndToEndTests {
  static let increment = #"{"op":"send","feature":"counter","event":{"type":"increment"}}"#

  @Test func everyOpOverARawSocket() async throws {
    let daemon = try await DaemonProcess()
    let client = try daemon.client()
    #expect(try await client.call(#"{"id":1,"op":"ping"}"#)["protocol"] == 2)
    let features = try await client.call(#"{"op":"features"}"#)
    // The built-in features come first; a generated one may follow (Scripts/new-feature).
    #expect(
      features["features"]?.arrayValue?.compactMap { $0["name"]?.stringValue }.prefix(3) == [
        "counter", "settings", "search",
      ])
    #expect(try await client.call(#"{"op":"describe","feature":"settings"}"#)["undo_redo"] == false)
    // The search's result depends on the outside world: describe says so (statectl replay).
    let searchEvents = try await client.call(#"{"op":"describe","feature":"search"}"#)["events"]
    #expect(
      searchEvents?.arrayValue?.map { $0["effects"] } == [true, nil, nil, nil],
      "only search is marked")
    let sent = try await client.call(
      #"{"id":2,"op":"send","feature":"counter","event":{"type":"set","value":4}}"#)
    #expect(sent == ["id": 2, "ok": true, "outcome": "handled", "state": ["count": 4], "seq": 1])
    #expect(try await client.call(#"{"op":"get","feature":"counter"}"#)["state"] == ["count": 4])

    let watcher = try daemon.client()
    #expect(try await watcher.call(#"{"op":"watch","feature":"counter"}"#).int("seq") == 1)
    _ = try await client.call(Self.increment)
    #expect(
      try await watcher.next() == [
        "push": "state", "feature": "counter", "seq": 2, "state": ["count": 5],
      ])
    #expect(
      try await watcher.call(#"{"op":"unwatch","feature":"counter"}"#)["was_watching"] == true)

    #expect(try await client.call(#"{"op":"undo","feature":"counter"}"#)["state"] == ["count": 4])
    #expect(try await client.call(#"{"op":"redo","feature":"counter"}"#)["state"] == ["count": 5])
    #expect(
      try await client.call(#"{"op":"undo","feature":"search"}"#).errorCode == "not_supported")
  }

  @Test func stateSurvivesARestart() async throws {
    let directory = TemporaryDirectory()
    var bashID: Int64 = 0
    do {
      let daemon = try await DaemonProcess(directory: directory)
      let client = try daemon.client()
      _ = try await client.call(
        #"{"op":"send","feature":"counter","event":{"type":"set","value":41}}"#)
      _ = try await client.call(Self.increment)
      _ = try await client.call(
        #"{"op":"send","feature":"settings","event":{"type":"set","key":"counterStep","value":5}}"#)
      // A mark needs a result to mark (the machine's package catalog has bash).
      let found = try await client.call(
        #"{"op":"send","feature":"search","event":{"type":"search","term":"bash"}}"#)
      bashID = try #require(found["state"]?["results"]?[0]?["id"]?.int64Value)
      _ = try await client.call(
        #"{"op":"send","feature":"search","event":{"type":"toggleMark","id":\#(bashID)}}"#)
      daemon.signal(SIGTERM)
      #expect(try await daemon.waitForExit() == 0)
    }
    let daemon = try await DaemonProcess(directory: directory)
    let client = try daemon.client()
    #expect(
      try await client.call(#"{"op":"get","feature":"counter"}"#) == [
        "ok": true, "state": ["count": 42], "seq": 2,
      ], "seq continues from the stored state's (protocol 2)")
    #expect(
      try await client.call(#"{"op":"get","feature":"settings"}"#)["state"]?["counterStep"] == 5)
    #expect(
      try await client.call(#"{"op":"get","feature":"search"}"#)["state"]?["marks"] == [
        ["backend": "packages", "id": .integer(bashID), "name": "bash"]
      ])
    // The restored step applies.
    #expect(try await client.call(Self.increment)["state"] == ["count": 47])
  }

  @Test func aChangeWhoseReplyArrivedSurvivesSIGKILL() async throws {
    let directory = TemporaryDirectory()
    let total = 50
    do {
      let daemon = try await DaemonProcess(directory: directory)
      let client = try daemon.client()
      for _ in 0..<total { _ = try await client.call(Self.increment) }
      daemon.signal(SIGKILL)
      #expect(try await daemon.waitForExit() == SIGKILL)
    }
    #expect(fileExists(directory.socketPath))  // left behind by the crash: recovered below
    let daemon = try await DaemonProcess(directory: directory)
    let client = try daemon.client()
    #expect(
      try await client.call(#"{"op":"get","feature":"counter"}"#)["state"] == ["count": JSON(total)]
    )
  }

  @Test func sigtermAnswersWhatWasReadAndStoresIt() async throws {
    let directory = TemporaryDirectory()
    let sent = 3000
    var answered = 0
    do {
      let daemon = try await DaemonProcess(directory: directory)
      let client = try daemon.client()
      var batch = ""
      for id in 1...sent {
        batch +=
          #"{"id":\#(id),"op":"send","feature":"counter","event":{"type":"increment"}}"# + "\n"
      }
      try client.write(batch)
      _ = try await client.readLine()  // the first reply: events are in flight
      answered = 1
      daemon.signal(SIGTERM)
      // Replies to every request the daemon read, in order, then EOF.
      for line in try await client.readToEnd(timeout: .seconds(30)) {
        let reply = try JSON(parsing: line)
        #expect(reply.int("id") == answered + 1)
        #expect(reply["outcome"] == "handled")
        answered += 1
      }
      #expect(try await daemon.waitForExit() == 0)
      #expect(!fileExists(daemon.socketPath))
      #expect(daemon.log.contains("received SIGTERM"))
    }
    let daemon = try await DaemonProcess(directory: directory)
    let client = try daemon.client()
    // Exactly the answered events happened: none lost, none applied without a reply.
    #expect(
      try await client.call(#"{"op":"get","feature":"counter"}"#)["state"] == [
        "count": JSON(answered)
      ])
  }

  @Test func whitespaceOnlyLinesAreIgnoredLikeEmptyOnes() async throws {
    let daemon = try await DaemonProcess()
    let client = try daemon.client()
    try client.write("   \n\t\n\n \r\n\r\n" + #"{"id":1,"op":"ping"}"# + "\n  \n")
    #expect(try await client.next().int("id") == 1)
    client.shutdownWrite()
    #expect(try await client.readToEnd() == [])  // nothing answered the blank lines
  }

  @Test func badInputNeverChangesStateOrStopsTheDaemon() async throws {
    let daemon = try await DaemonProcess(arguments: ["--max-frame-bytes", "256"])
    let client = try daemon.client()
    _ = try await client.call(Self.increment)
    let cases: [([UInt8], String)] = [
      (Array("{\"op\":\"send\"".utf8), "parse_error"),
      (
        Array(#"{"op":"send","feature":"counter","event":{"type":"increment","x":""#.utf8) + [
          0xC3, 0x28, 0x22, 0x7D, 0x7D,
        ], "invalid_utf8"
      ),
      (Array("\"increment\"".utf8), "not_an_object"),
      (Array(#"{"op":"sned"}"#.utf8), "unknown_op"),
      (
        Array(#"{"op":"send","feature":"Counter","event":{"type":"increment"}}"#.utf8),
        "unknown_feature"
      ),
      (
        Array(#"{"op":"send","feature":"counter","event":{"type":"Increment"}}"#.utf8),
        "unknown_event"
      ),
      (Array(#"{"op":"send","feature":"counter","event":{"type":"set"}}"#.utf8), "missing_field"),
      (
        Array(#"{"op":"send","feature":"counter","event":{"type":"set","value":true}}"#.utf8),
        "invalid_field"
      ),
      (
        Array(#"{"op":"send","feature":"counter","event":{"type":"set","value":1.5}}"#.utf8),
        "invalid_field"
      ),
      (
        Array(
          #"{"op":"send","feature":"settings","event":{"type":"set","key":"searchLimit","value":0}}"#
            .utf8), "event_failed"
      ),
    ]
    for (line, code) in cases {
      try client.write(line + [10])
      let reply = try await client.next()
      #expect(reply.errorCode == code, "\(String(decoding: line, as: UTF8.self)) → \(reply)")
    }
    #expect(
      try await client.call(#"{"op":"get","feature":"counter"}"#) == [
        "ok": true, "state": ["count": 1], "seq": 1,
      ])
    #expect(try await client.call(#"{"op":"get","feature":"settings"}"#).int("seq") == 0)

    let oversized = try daemon.client()
    try oversized.write(
      #"{"op":"send","feature":"counter","event":{"type":"set","value":9},"pad":""#
        + String(repeating: "x", count: 300) + "\"}\n")
    let lines = try await oversized.readToEnd()
    #expect(lines.count == 1)
    #expect(try JSON(parsing: lines[0]).errorCode == "frame_too_large")
    #expect(try await client.call(#"{"op":"get","feature":"counter"}"#)["state"] == ["count": 1])
    #expect(try await daemon.client().call(#"{"op":"ping"}"#)["ok"] == true)
  }

  @Test func aSlowWatcherBlocksNobodyAndSeesAGap() async throws {
    let daemon = try await DaemonProcess()
    let slow = try daemon.client()
    let sender = try daemon.client()
    let other = try daemon.client()
    #expect(try await slow.call(#"{"op":"watch","feature":"counter"}"#).int("seq") == 0)
    let total = 3000
    try sender.write(String(repeating: Self.increment + "\n", count: total))
    _ = try await sender.readLines(total, timeout: .seconds(60))
    // Meanwhile another client is served at once, though `slow` has read nothing.
    #expect(
      try await other.call(#"{"op":"get","feature":"counter"}"#)["state"] == ["count": JSON(total)])
    var seqs: [Int] = []
    while seqs.last != total { seqs.append(try #require(try await slow.next().int("seq"))) }
    #expect(seqs.count < total, "expected coalesced pushes, got \(seqs.count)")
    #expect(zip(seqs, seqs.dropFirst()).contains { $1 - $0 > 1 }, "expected a seq gap")
  }

  @Test func anUnreadableStoredStateIsSetAsideAndLogged() async throws {
    let directory = TemporaryDirectory()
    mkdir(directory.path + "/state", 0o700)
    try "{not json".write(
      toFile: directory.path + "/state/counter.json", atomically: true, encoding: .utf8)
    let daemon = try await DaemonProcess(directory: directory)
    let client = try daemon.client()
    #expect(try await client.call(#"{"op":"get","feature":"counter"}"#)["state"] == ["count": 0])
    #expect(
      daemon.log.contains("warning: CounterBloc: restore: cannot read stored state 'counter'"),
      "\(daemon.log)")
    #expect(fileExists(directory.path + "/state/counter.unreadable-1.json"))
  }

  @Test func pythonClientSendsGetsAndWatches() async throws {
    let daemon = try await DaemonProcess()
    let script = ProtocolDocumentTests.packageRoot.appendingPathComponent(
      "Scripts/stated_client.py"
    ).path
    func client(_ arguments: [String]) async throws -> (Int32, String) {
      try await runProcess(
        "/usr/bin/env", ["python3", script, "--socket", daemon.socketPath] + arguments)
    }
    #expect(try await client(["ping"]) == (0, "stated 0.1.0, protocol 2\n"))
    #expect(
      try await client(["send", "counter", "set", "value:=5"]) == (
        0, #"{"outcome":"handled","state":{"count":5},"seq":1}"# + "\n"
      ))
    // What statectl prints in a pipe: the state and its seq.
    #expect(try await client(["get", "counter"]) == (0, #"{"state":{"count":5},"seq":1}"# + "\n"))
    let failed = try await client(["--human", "send", "counter", "set", "value=x"])
    #expect(failed.0 == 1)
    #expect(failed.1.contains(#"invalid_field: field 'event.value' must be integer, got "x""#))
    #expect(try await client(["send", "settings", "set", "key=searchCountry", "value=de"]).0 == 0)

    // Watch in the background while another process changes the count.
    let watch = Process()
    watch.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    watch.arguments = [
      "python3", script, "--socket", daemon.socketPath, "watch", "counter", "--count", "2",
    ]
    let output = Pipe()
    watch.standardOutput = output
    try watch.run()
    let watcher = try daemon.client()
    let reader = Task {
      await offThePool {
        let data = output.fileHandleForReading.readDataToEndOfFile()
        watch.waitUntilExit()
        return data
      }
    }
    // Increment until the watcher, which stops after 2 states, exits (its first state may
    // be any of these; the pause only paces the loop).
    let deadline = ContinuousClock.now + .seconds(30)
    while watch.isRunning, ContinuousClock.now < deadline {
      _ = try await watcher.call(Self.increment)
      try await Task.sleep(for: .milliseconds(20))
    }
    let data = await reader.value
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    #expect(watch.terminationStatus == 0)
    #expect(lines.count == 2)
    #expect(try JSON(parsing: lines[0])["state"]?["count"]?.intValue ?? 0 >= 5)

    // Importable: the library API.
    let (status, printed) = try await runProcess(
      "/usr/bin/env",
      [
        "python3", "-c",
        """
        import sys; sys.path.insert(0, "\(URL(fileURLWithPath: script).deletingLastPathComponent().path)")
        from stated_client import Client, StatedError
        with Client("\(daemon.socketPath)") as c:
            c.send("counter", {"type": "set", "value": 100})
            print(c.get("counter")["state"]["count"])
            try:
                c.get("nope")
            except StatedError as e:
                print(e.code)
        """,
      ])
    #expect(status == 0)
    #expect(printed == "100\nunknown_feature\n")
  }
}

/// Runs a process to completion; returns its status and combined output.
func runProcess(
  _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
  directory: URL? = nil
) async throws -> (Int32, String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  if let environment { process.environment = environment }
  if let directory { process.currentDirectoryURL = directory }
  let output = Pipe()
  process.standardOutput = output
  process.standardError = output
  try process.run()
  return await offThePool {
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}

/// Runs blocking work on a Dispatch thread: the cooperative pool is as small as the machine
/// (2 threads here), and the servers under test need it.
func offThePool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in
    DispatchQueue.global().async { continuation.resume(returning: body()) }
  }
}
