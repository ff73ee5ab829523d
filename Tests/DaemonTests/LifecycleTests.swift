import Glibc
import StateServer
import Synchronization
import Testing

@Suite("Lifecycle")
struct LifecycleTests {
  @Test func shutdownWithConnectedClientRemovesFilesAndRunReturns() async throws {
    let directory = TemporaryDirectory()
    let delegate = EchoDelegate()
    let server = Server(
      configuration: quietConfiguration(directory.socketPath), delegate: delegate)
    let running = Task { try await server.run() }
    #expect(await eventually { fileExists(directory.socketPath) && server.socketPath != nil })
    let client = try TestClient(path: directory.socketPath)
    try client.write("still here\n")
    #expect(try await client.readLine() == "still here")
    #expect(fileExists(directory.socketPath + ".lock"))

    server.shutdown()
    #expect(await stopped(server))
    try await running.value
    #expect(!fileExists(directory.socketPath))
    #expect(!fileExists(directory.socketPath + ".lock"))
    #expect(try await client.readToEnd().isEmpty)  // EOF, not a hang
    #expect(delegate.closedCount == 1)
    #expect(throws: (any Error).self) { try TestClient(path: directory.socketPath) }
  }

  @Test func drainHookLetsInFlightRepliesThrough() async throws {
    let delegate = SlowDelegate()
    let directory = TemporaryDirectory()
    var configuration = quietConfiguration(directory.socketPath)
    // The drain finishes as soon as the reply is sent; the bound only matters when the
    // machine is so busy (ThreadSanitizer, full suite) that the default 10 s would pass first.
    configuration.drainTimeout = .seconds(120)
    let server = Server(
      configuration: configuration, delegate: delegate, drain: { await delegate.waitUntilIdle() })
    try server.start()
    let client = try TestClient(path: directory.socketPath)
    try client.write("work\n")
    #expect(await eventually { delegate.started.load(ordering: .relaxed) == 1 })
    server.shutdown()
    // Once new connections are refused, shutdown has begun and reading has stopped.
    #expect(await eventually { (try? TestClient(path: directory.socketPath)) == nil })
    try client.write("late\n")
    #expect(await stopped(server, within: .seconds(120)))
    #expect(try await client.readToEnd() == ["work done"])
    #expect(delegate.started.load(ordering: .relaxed) == 1)
  }

  @Test func flushTimeoutBoundsShutdownWithAStuckReader() async throws {
    let delegate = EchoDelegate()
    try await withServer(delegate: delegate, configure: { $0.flushTimeout = .milliseconds(200) }) {
      server, path in
      let client = try TestClient(path: path)
      try client.write("hi\n")
      _ = try await client.readLine()
      let connection = try #require(delegate.openedConnections.first)
      connection.queueReply([UInt8](repeating: 65, count: 8 << 20) + [10])  // never read
      server.shutdown()
      // Without the flush timeout the stuck reader would hold shutdown forever; `stopped`
      // gives up after 20 s (no tighter wall-clock bound: a loaded CI machine is slow).
      #expect(await stopped(server))
      #expect(connection.isClosed)
      #expect(!fileExists(path))
    }
  }

  @Test func signalTriggersGracefulShutdown() async throws {
    let directory = TemporaryDirectory()
    let server = Server(
      configuration: quietConfiguration(directory.socketPath), delegate: EchoDelegate())
    // SIGUSR2 stands in for SIGTERM, which the test runner should keep for itself.
    let signals = TerminationSignals([SIGUSR2]) { _ in server.shutdown() }
    defer { signals.cancel() }
    try server.start()
    kill(getpid(), SIGUSR2)
    #expect(await stopped(server))
    #expect(!fileExists(directory.socketPath))
  }

  @Test func startTwiceOrAfterShutdownIsRefused() async throws {
    let directory = TemporaryDirectory()
    let server = Server(
      configuration: quietConfiguration(directory.socketPath), delegate: EchoDelegate())
    try server.start()
    #expect(throws: ServerError.self) { try server.start() }
    await server.stop()
    #expect(!fileExists(directory.socketPath))
    #expect(throws: ServerError.self) { try server.start() }

    let unused = Server(
      configuration: quietConfiguration(directory.socketPath), delegate: EchoDelegate())
    unused.shutdown()
    #expect(await stopped(unused))  // returns at once: nothing was running
  }

  @Test func waitingForStopEndsWhenTheWaiterIsCancelled() async throws {
    let directory = TemporaryDirectory()
    let server = Server(
      configuration: quietConfiguration(directory.socketPath), delegate: EchoDelegate())
    let waiter = Task { await server.waitUntilStopped() }
    waiter.cancel()
    await waiter.value  // returns although the server never stopped
    #expect(server.socketPath == nil)
  }

  @Test func secondServerOnTheSamePathIsRefused() async throws {
    try await withServer { _, path in
      let second = Server(configuration: quietConfiguration(path), delegate: EchoDelegate())
      let error = #expect(throws: ServerError.self) { try second.start() }
      #expect(error == .alreadyRunning(socketPath: path, pid: getpid()))
    }
  }

  private func quietConfiguration(_ path: String) -> ServerConfiguration {
    var configuration = ServerConfiguration(socketPath: path, environment: [:])
    configuration.log = { _ in }
    return configuration
  }
}

/// Replies asynchronously, a little later, like a real dispatcher would.
private final class SlowDelegate: ConnectionDelegate {
  let started = Atomic(0)
  let finished = Atomic(0)

  func connection(_ connection: Connection, didReceive frame: [UInt8]) {
    started.add(1, ordering: .relaxed)
    Task {
      try? await Task.sleep(for: .milliseconds(150))
      connection.queueReply(frame + Array(" done\n".utf8))
      finished.add(1, ordering: .relaxed)
    }
  }

  func connection(_ connection: Connection, didReceiveOversizedFrame byteCount: Int) {}

  func waitUntilIdle() async {
    while finished.load(ordering: .relaxed) < started.load(ordering: .relaxed) {
      try? await Task.sleep(for: .milliseconds(5))
    }
  }
}
