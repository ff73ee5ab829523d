import Glibc
import StateServer
import Testing

@Suite("Server I/O")
struct ServerEchoTests {
  @Test func pipelinedFramesAreAnsweredInOrder() async throws {
    try await withServer { _, path in
      let client = try TestClient(path: path)
      let requests = (0..<2000).map { "request \($0)" }
      try client.write(requests.joined(separator: "\n") + "\n")
      #expect(try await client.readLines(requests.count) == requests)
    }
  }

  @Test func framesSplitByteByByte() async throws {
    try await withServer { _, path in
      let client = try TestClient(path: path)
      for byte in Array("alpha\r\n\nbeta\ngamma\n".utf8) {
        try client.write([byte])
      }
      #expect(try await client.readLines(3) == ["alpha", "beta", "gamma"])
    }
  }

  @Test func manyClientsAreServedIndependently() async throws {
    try await withServer { _, path in
      let clients = try (0..<20).map { _ in try TestClient(path: path) }
      for (index, client) in clients.enumerated() {
        try client.write("hello \(index)\n")
      }
      for (index, client) in clients.enumerated() {
        #expect(try await client.readLine() == "hello \(index)")
      }
    }
  }

  @Test func foreignUIDGetsPermissionDeniedThenClose() async throws {
    let delegate = EchoDelegate()
    try await withServer(delegate: delegate, configure: { $0.allowedUID = geteuid() &+ 1 }) {
      _, path in
      let client = try TestClient(path: path)
      let lines = try await client.readToEnd()
      #expect(lines.count == 1)
      #expect(lines.first?.hasPrefix(#"{"ok":false,"error":{"code":"permission_denied","#) == true)
      #expect(lines.first?.contains("uid \(geteuid())") == true)
      #expect(delegate.openedConnections.isEmpty)
    }
  }

  @Test func peerCredentialsAreReported() async throws {
    let delegate = EchoDelegate()
    try await withServer(delegate: delegate) { _, path in
      let client = try TestClient(path: path)
      try client.write("x\n")
      _ = try await client.readLine()
      let connection = try #require(delegate.openedConnections.first)
      #expect(connection.peerUID == geteuid())
      #expect(connection.peer.pid == getpid())
    }
  }

  @Test func oversizedFrameIsReportedThenConnectionClosed() async throws {
    let delegate = EchoDelegate()
    try await withServer(delegate: delegate, configure: { $0.maxFrameBytes = 1024 }) {
      _, path in
      let client = try TestClient(path: path)
      try client.write("one\ntwo\n" + String(repeating: "z", count: 4096) + "\nthree\n")
      let lines = try await client.readToEnd()
      #expect(lines == ["one", "two", #"{"ok":false,"error":{"code":"frame_too_large"}}"#])
      let oversized = delegate.record.withLock { $0.oversized }
      #expect(oversized.count == 1)
      #expect(oversized.first.map { $0 > 1024 } == true)
      #expect(await eventually { delegate.closedCount == 1 })
    }
  }

  @Test func halfClosedClientStillGetsItsReplies() async throws {
    try await withServer { _, path in
      let client = try TestClient(path: path)
      try client.write("a\nb\nc\n")
      client.shutdownWrite()
      #expect(try await client.readToEnd() == ["a", "b", "c"])
    }
  }

  @Test func requestsOfAClientThatHungUpStillRun() async throws {
    let delegate = EchoDelegate()
    try await withServer(delegate: delegate) { _, path in
      do {
        let client = try TestClient(path: path)
        try client.write("a\nb\nc\n")
      }  // closed right away, before any reply is read
      #expect(await eventually { delegate.closedCount == 1 })
      #expect(delegate.record.withLock { $0.frames } == 3)
    }
  }

  @Test func delegateCanCloseAfterReplying() async throws {
    try await withServer(delegate: ByeDelegate()) { _, path in
      let client = try TestClient(path: path)
      try client.write("1\n2\nbye\n3\n")
      #expect(try await client.readToEnd() == ["1", "2", "bye"])
    }
  }

  @Test func repliesFromManyThreadsNeverInterleave() async throws {
    let delegate = EchoDelegate()
    try await withServer(delegate: delegate) { _, path in
      let client = try TestClient(path: path)
      try client.write("hi\n")
      #expect(try await client.readLine() == "hi")
      let connection = try #require(delegate.openedConnections.first)
      await withTaskGroup(of: Void.self) { group in
        for task in 0..<8 {
          group.addTask {
            for index in 0..<500 {
              if index % 2 == 0 {
                connection.queueReply(Array(line(task, index).utf8) + [10])
              } else {
                connection.push(Array(line(task, index).utf8) + [10], key: "t\(task)-\(index)")
              }
            }
          }
        }
      }
      let received = try await client.readLines(8 * 500)
      var nextIndex = [Int](repeating: 0, count: 8)
      for text in received {
        let parts = text.split(separator: " ")
        let task = try #require(Int(parts[1]))
        let index = try #require(Int(parts[3]))
        #expect(text == line(task, index))
        #expect(index == nextIndex[task])  // each thread's lines keep their order
        nextIndex[task] += 1
      }
    }
  }
}

/// A recognizable line for the interleaving test.
private func line(_ task: Int, _ index: Int) -> String {
  "task \(task) line \(index) " + String(repeating: "#", count: 300)
}

/// Echoes frames; on "bye" replies and closes the connection.
private final class ByeDelegate: ConnectionDelegate {
  func connection(_ connection: Connection, didReceive frame: [UInt8]) {
    connection.queueReply(frame + [10])
    if frame == Array("bye".utf8) { connection.close() }
  }

  func connection(_ connection: Connection, didReceiveOversizedFrame byteCount: Int) {}
}
