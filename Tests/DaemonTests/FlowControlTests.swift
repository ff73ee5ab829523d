import Glibc
import StateServer
import Testing

@Suite("Flow control")
struct FlowControlTests {
  @Test func pushesCoalescePerKeyWhileTheReaderIsSlow() async throws {
    let delegate = EchoDelegate()
    try await withServer(delegate: delegate) { _, path in
      let client = try TestClient(path: path)
      try client.write("hi\n")
      #expect(try await client.readLine() == "hi")
      let connection = try #require(delegate.openedConnections.first)
      // A reply bigger than the socket buffers keeps the socket full, so the
      // pushes behind it stay unwritten while the client is not reading.
      let filler = [UInt8](repeating: UInt8(ascii: "f"), count: 1 << 20) + [10]
      connection.queueReply(filler)
      for index in 0..<1000 {
        connection.push(Array("state \(index)\n".utf8), key: "counter")
      }
      #expect(connection.queuedByteCount <= filler.count + 16)  // one slot, not 1000
      #expect(try await client.readLine()?.utf8.count == filler.count - 1)
      var pushes: [String] = []
      while pushes.last != "state 999" {
        pushes.append(try #require(try await client.readLine()))
      }
      #expect(pushes.count <= 2)
      #expect(pushes.allSatisfy { $0.hasPrefix("state ") })
    }
  }

  @Test func repliesAreNeverDroppedAndPushesKeepTheirPlace() async throws {
    let delegate = EchoDelegate()
    try await withServer(delegate: delegate) { _, path in
      let client = try TestClient(path: path)
      try client.write("hi\n")
      _ = try await client.readLine()
      let connection = try #require(delegate.openedConnections.first)
      connection.queueReply([UInt8](repeating: UInt8(ascii: "f"), count: 1 << 20) + [10])
      connection.push(Array("a1\n".utf8), key: "a")
      connection.queueReply(Array("r1\n".utf8))
      connection.push(Array("b1\n".utf8), key: "b")
      connection.push(Array("a2\n".utf8), key: "a")  // replaces a1 in its slot
      connection.queueReply(Array("r2\n".utf8))
      connection.push(Array("b2\n".utf8), key: "b")
      _ = try await client.readLine()  // the filler
      #expect(try await client.readLines(4) == ["a2", "r1", "b2", "r2"])
    }
  }

  @Test func clientThatNeverReadsCannotMakeTheServerBufferWithoutBound() async throws {
    let delegate = EchoDelegate()
    let limit = 1 << 20
    try await withServer(delegate: delegate, configure: { $0.maxQueuedBytes = limit }) {
      _, path in
      let client = try TestClient(path: path)
      try client.write("hi\n")
      _ = try await client.readLine()
      let connection = try #require(delegate.openedConnections.first)

      let lineBytes = 100
      let lineCount = 20 * 1024 * 1024 / lineBytes
      var requests = [UInt8]()
      requests.reserveCapacity(lineCount * lineBytes)
      for index in 0..<lineCount {
        let number = String(index)
        requests += Array((String(repeating: "0", count: 8 - number.count) + number).utf8)
        requests += [UInt8](repeating: UInt8(ascii: "."), count: lineBytes - 9) + [10]
      }

      // Phase 1: write without reading until the server stops taking requests.
      var offset = 0
      var maxQueued = 0
      var stalled = false
      let deadline = ContinuousClock.now + .seconds(60)
      while offset < requests.count, ContinuousClock.now < deadline {
        offset += try requests.withUnsafeBytes { all in
          try client.tryWrite(
            UnsafeRawBufferPointer(rebasing: all[offset..<min(offset + 65536, all.count)]))
        }
        maxQueued = max(maxQueued, connection.queuedByteCount)
        if connection.queuedByteCount >= limit,
          await client.poll(Int16(POLLOUT), timeout: .milliseconds(300)) == 0
        {
          stalled = true
          break
        }
      }
      #expect(stalled)
      #expect(offset < 6 * 1024 * 1024)  // socket buffers + the limit, not 20 MB
      #expect(maxQueued <= limit + lineBytes)

      // A paused connection does not slow anybody else.
      let other = try TestClient(path: path)
      try other.write("ping\n")
      #expect(try await other.readLine() == "ping")

      // Phase 2: read; the server resumes and everything arrives, in order.
      var received = 0
      while received < lineCount, ContinuousClock.now < deadline {
        let wanted = Int16(POLLIN) | (offset < requests.count ? Int16(POLLOUT) : 0)
        let ready = await client.poll(wanted, timeout: .seconds(5))
        if ready & Int16(POLLOUT) != 0 {
          offset += try requests.withUnsafeBytes { all in
            try client.tryWrite(
              UnsafeRawBufferPointer(rebasing: all[offset..<min(offset + 65536, all.count)]))
          }
        }
        if ready & Int16(POLLIN) != 0 {
          try await client.fill(timeout: .zero)
          client.consumeLines { line in
            let number = Int(String(decoding: line.prefix(8), as: UTF8.self))
            if number != received { Issue.record("line \(received) came as \(line.prefix(8))") }
            received += 1
          }
        }
        maxQueued = max(maxQueued, connection.queuedByteCount)
      }
      #expect(received == lineCount)
      #expect(maxQueued <= limit + lineBytes)
    }
  }
}
