import Glibc
import Testing
import Wire

@Suite struct WireConnectionTests {
  @Test func callReturnsTheReplyAndKeepsThePushForLater() throws {
    let server = TestServer(miniDaemon)
    defer { server.finish() }
    let connection = try WireConnection.connect(path: server.path, timeout: .seconds(10))
    defer { connection.close() }

    let reply = try connection.call(Request(id: 1, op: "ping"))
    #expect(reply == ReplyMessage(id: 1, ok: true, fields: ["daemon": "test", "protocol": 1]))
    let push = try connection.readMessage()
    #expect(
      push
        == .push(PushMessage(kind: "state", feature: "counter", sequence: 1, state: ["count": 1])))
    try connection.send(Request(op: "quit"))
    #expect(try connection.readMessage() == nil)
  }

  @Test func pipelinedRequestsAreAnsweredInOrder() throws {
    let server = TestServer(miniDaemon)
    defer { server.finish() }
    let connection = try WireConnection.connect(path: server.path, timeout: .seconds(10))
    defer { connection.close() }

    try connection.send(Request(id: "a", op: "echo", fields: ["n": 1]))
    try connection.send(["id": 2, "op": "echo", "text": "line\nbreak"])
    try connection.sendLine(Array("{\"op\":\"echo\"}\n{not json}\n".utf8))
    try connection.send(Request(id: 4, op: "fly"))

    var replies: [ReplyMessage] = []
    for _ in 0..<5 {
      guard case .reply(let reply)? = try connection.readMessage() else {
        Issue.record("expected a reply")
        return
      }
      replies.append(reply)
    }
    #expect(replies.map(\.id) == ["a", 2, nil, nil, 4])
    #expect(replies[0].fields["echo"] == ["id": "a", "op": "echo", "n": 1])
    #expect(replies[1].fields["echo"]?["text"] == "line\nbreak")
    #expect(replies[2].ok)
    #expect(replies[3].error?.code == .parseError)
    #expect(replies[4].error == .unknownOp("fly"))
  }

  @Test func largeRepliesArriveInPieces() throws {
    let server = TestServer(miniDaemon)
    defer { server.finish() }
    let connection = try WireConnection.connect(path: server.path, timeout: .seconds(10))
    defer { connection.close() }

    let reply = try connection.call(Request(id: 1, op: "big", fields: ["n": 300_000]))
    #expect(reply.fields["text"]?.stringValue?.count == 300_000)
  }

  @Test func oversizedMessagesAreReportedAndSkipped() throws {
    let server = TestServer(miniDaemon)
    defer { server.finish() }
    let connection = try WireConnection.connect(
      path: server.path, timeout: .seconds(10), maxFrameBytes: 1000)
    defer { connection.close() }

    try connection.send(Request(id: 1, op: "big", fields: ["n": 5000]))
    try connection.send(Request(id: 2, op: "echo"))
    let error = #expect(throws: ConnectionError.self) { try connection.readMessage() }
    #expect(error?.kind == .frameTooLarge)
    guard case .reply(let reply)? = try connection.readMessage() else {
      Issue.record("expected the next reply")
      return
    }
    #expect(reply.id == 2)
  }

  @Test func closeMidMessageIsAnError() throws {
    let server = TestServer { fd in writeAll(fd, Array(#"{"ok":true,"#.utf8)) }
    defer { server.finish() }
    let connection = try WireConnection.connect(path: server.path, timeout: .seconds(10))
    let error = #expect(throws: ConnectionError.self) { try connection.readMessage() }
    #expect(error?.kind == .closed)
  }

  @Test func malformedMessagesAreReported() throws {
    let server = TestServer { fd in writeAll(fd, Array("[1,2]\n".utf8)) }
    defer { server.finish() }
    let connection = try WireConnection.connect(path: server.path, timeout: .seconds(10))
    let error = #expect(throws: ConnectionError.self) { try connection.readMessage() }
    #expect(error?.kind == .malformedMessage)
    #expect(error?.message.contains("not_an_object") == true)
  }

  @Test func sendingToAClosedPeerFailsWithoutSIGPIPE() throws {
    let server = TestServer { _ in }  // accepts, then closes at once
    defer { server.finish() }
    let connection = try WireConnection.connect(path: server.path, timeout: .seconds(10))
    #expect(try connection.readLine() == nil)  // the peer is gone
    let error = #expect(throws: ConnectionError.self) {
      for _ in 0..<100 { try connection.send(Request(op: "ping")) }
    }
    #expect(error?.kind == .closed)
  }

  @Test func readTimesOut() throws {
    let server = TestServer { fd in
      var byte: UInt8 = 0
      _ = recv(fd, &byte, 1, 0)  // wait for the client to hang up
    }
    defer { server.finish() }
    let connection = try WireConnection.connect(path: server.path, timeout: .milliseconds(50))
    let error = #expect(throws: ConnectionError.self) { try connection.readMessage() }
    #expect(error?.kind == .timedOut)
    connection.close()
  }

  @Test func useAfterCloseFails() throws {
    let server = TestServer(miniDaemon)
    defer { server.finish() }
    let connection = try WireConnection.connect(path: server.path)
    connection.close()
    connection.close()
    #expect(connection.isClosed)
    #expect(throws: ConnectionError(.closed, "connection is closed")) {
      try connection.send(Request(op: "ping"))
    }
    #expect(throws: ConnectionError(.closed, "connection is closed")) { try connection.readLine() }
  }

  @Test func missingSocketFile() {
    let directory = TempDirectory()
    defer { directory.remove() }
    let path = directory.path + "/absent.sock"
    let error = #expect(throws: ConnectionError.self) { try WireConnection.connect(path: path) }
    #expect(error?.kind == .socketMissing)
    #expect(error?.errno == ENOENT)
    #expect(error?.message == "cannot connect to \(path): no such socket file")
  }

  @Test func staleSocketFileRefusesConnections() {
    let directory = TempDirectory()
    let path = directory.path + "/stale.sock"
    close(makeServerSocket(path: path, listen: false))  // leaves the file, nobody listening
    defer { directory.remove("stale.sock") }
    let error = #expect(throws: ConnectionError.self) { try WireConnection.connect(path: path) }
    #expect(error?.kind == .connectionRefused)
    #expect(error?.errno == ECONNREFUSED)
    #expect(
      error?.message
        == "cannot connect to \(path): connection refused (stale socket file, no daemon listening)")
  }

  @Test func permissionDeniedIsNamed() {
    // Root bypasses file permissions, so check the errno mapping directly.
    let error = ConnectionError.connecting(to: "/run/s.sock", errno: EACCES)
    #expect(error.kind == .permissionDenied)
    #expect(error.message == "cannot connect to /run/s.sock: permission denied")
    #expect(ConnectionError.connecting(to: "/x", errno: ENOTDIR).kind == .socketMissing)
  }

  @Test func invalidPaths() {
    for path in ["", "/tmp/" + String(repeating: "x", count: 200), "/tmp/a\u{0}b"] {
      let error = #expect(throws: ConnectionError.self) { try WireConnection.connect(path: path) }
      #expect(error?.kind == .invalidPath)
    }
  }
}
