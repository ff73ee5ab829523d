import BlocCore
import Foundation
import Glibc
import Testing
import Wire

/// No client can stall the others: not with large frames, not with a burst of connections.
@Suite("fairness between clients", .serialized)
struct FairnessTests {
  /// A `ping` with `members` extra members (requests ignore members they do not use), built
  /// off the cooperative pool: the suite's in-process servers need its few threads.
  static func largePing(id: String, members: Int) async -> String {
    await offThePool {
      var line = #"{"id":"\#(id)","op":"ping""#
      line.reserveCapacity(members * 16)
      for index in 0..<members { line += #","k\#(index)":\#(index)"# }
      return line + "}\n"
    }
  }

  @Test func otherClientsAreServedWhileALargeFrameIsInFlight() async throws {
    // The dispatcher parses large frames on this queue; suspended, it holds one in flight for
    // as long as the test needs, so what is asserted is order, not speed.
    let queue = DispatchQueue(label: "held-large-frames")
    queue.suspend()
    let resumed = Locked(false)
    func resume() {
      if !resumed.withLock({ done in
        defer { done = true }; return done
      }) {
        queue.resume()
      }
    }
    // Even when an expectation throws: a suspended queue must not be released.
    defer { resume() }
    try await withDispatcher(largeFrameBytes: 1024, largeFrameQueue: queue) { path, _, _ in
      let large = try TestClient(path: path)
      let other = try TestClient(path: path)
      try large.write(
        await Self.largePing(id: "large", members: 200) + #"{"id":"after","op":"ping"}"# + "\n")
      try large.write(#"{"op":"send","feature":"tally","event":{"type":"add"}}"# + "\n")
      for id in 1...3 {
        #expect(try await other.call(#"{"id":\#(id),"op":"ping"}"#).int("id") == id)
      }
      // The large frame and the requests after it wait; their connection's order holds.
      #expect(try await other.call(#"{"op":"get","feature":"tally"}"#)["state"]?["count"] == 0)
      #expect(await large.poll(Int16(POLLIN), timeout: .zero) == 0)
      resume()
      let replies = try await large.readLines(3).map { try JSON(parsing: $0) }
      #expect(replies.map { $0["id"] } == ["large", "after", nil])
      #expect(replies[2]["state"]?["count"] == 1)
    }
  }

  @Test func aDaemonKeepsServingWhileLargeFramesFlow() async throws {
    let daemon = try await DaemonProcess()
    let large = try daemon.client()
    let other = try daemon.client()
    // Frames of 1 MiB holding 60,000 members, as an abusive client would send.
    let frame = await Self.largePing(id: "large", members: 60_000)
    #expect(frame.utf8.count > 800_000)
    try large.write(frame + frame + #"{"id":"after","op":"ping"}"# + "\n")
    for id in 1...3 {
      #expect(try await other.call(#"{"id":\#(id),"op":"ping"}"#).int("id") == id)
    }
    let replies = try await large.readLines(3, timeout: .seconds(120)).map {
      try JSON(parsing: $0)
    }
    #expect(replies.map { $0["id"] } == ["large", "large", "after"])
  }

  @Test func largeFramesKeepTheirOrderWithSmallOnes() async throws {
    let daemon = try await DaemonProcess()
    let client = try daemon.client()
    var batch = ""
    let increment = #"{"id":"i","op":"send","feature":"counter","event":{"type":"increment"}}"#
    for round in 0..<4 {
      batch += increment + "\n"
      batch += await Self.largePing(id: "large\(round)", members: 6_000)  // ≥ 64 KiB
      batch += #"{"id":"g","op":"get","feature":"counter"}"# + "\n"
    }
    try client.write(batch)
    let replies = try await client.readLines(12, timeout: .seconds(60)).map {
      try JSON(parsing: $0)
    }
    // Replies in request order; each `get` sees the increments sent before it (and maybe
    // later ones: a reply carries the state when it is produced).
    #expect(replies.map { $0["id"] } == (0..<4).flatMap { ["i", JSON("large\($0)"), "g"] })
    for round in 0..<4 {
      let count = try #require(replies[round * 3 + 2]["state"]?["count"]?.intValue)
      #expect(count >= round + 1)
    }
    #expect(replies.last?["state"] == ["count": 4])
  }

  @Test func aClientThatHangsUpAfterALargeFrameStillHasItsRequestsRun() async throws {
    let daemon = try await DaemonProcess()
    do {
      let client = try daemon.client()
      try client.write(
        await Self.largePing(id: "large", members: 6_000)
          + #"{"op":"send","feature":"counter","event":{"type":"set","value":7}}"# + "\n")
    }  // closed without reading
    // Its requests run although nobody is left to answer: the count becomes 7.
    let other = try daemon.client()
    var count: Int?
    for _ in 0..<1000 where count != 7 {
      count = try await other.call(#"{"op":"get","feature":"counter"}"#)["state"]?["count"]?
        .intValue
      if count != 7 { try await Task.sleep(for: .milliseconds(10)) }
    }
    #expect(count == 7)
  }

  @Test func aBurstOfConnectionsWaitsInTheBacklog() async throws {
    let daemon = try await DaemonProcess()
    // Stopped, the daemon accepts nothing: every connect waits in the listen backlog, which
    // must hold a burst of 1,000 (128 did not).
    daemon.signal(SIGSTOP)
    var sockets: [Int32] = []
    defer { for fd in sockets { close(fd) } }
    var refused = 0
    for _ in 0..<1000 {
      let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue), 0)
      var address = sockaddr_un()
      address.sun_family = sa_family_t(AF_UNIX)
      withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: daemon.socketPath.utf8) }
      let status = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
      }
      if status != 0 { refused += 1 }
      sockets.append(fd)
    }
    daemon.signal(SIGCONT)
    #expect(refused == 0, "\(refused) of 1000 connects refused")
    #expect(try await daemon.client().call(#"{"op":"ping"}"#)["ok"] == true)
  }
}
