import BlocCore
import BlocJournal
import Dispatch
import Wire

/// Protocol v1 on top of the transport: parses each frame, runs the op against the
/// ``FeatureRegistry`` and replies. See PROTOCOL.md for the contract.
///
/// ```swift
/// let dispatcher = RequestDispatcher(registry: registry, version: "0.1.0", logger: logger)
/// let server = Server(
///   configuration: configuration, delegate: dispatcher, drain: { await dispatcher.drain() })
/// ```
///
/// Events are added to their bloc synchronously, in frame order: on the loop thread, or for a
/// large frame on a thread of its own while the connection's later frames wait. Replies go out
/// in request order per connection (see ``ClientSession``).
///
/// The common case runs straight through the loop turn: an event read on the loop thread for
/// an idle bloc with a synchronous handler is handled at once (``Bloc/handleInline(_:)``), its
/// change staged in the turn's journal batch and its reply noted in the connection's session;
/// when the turn ends the batch is written once, then those replies are written, with what the
/// write did to their changes. Events of busy blocs or with suspending handlers, and those of a
/// connection with an earlier reply still queued, take the queue: the same bytes either way.
public final class RequestDispatcher: ConnectionDelegate {
  public let registry: FeatureRegistry
  public let version: String
  let logger: Logger
  private let sessions = Locked<[UInt64: ClientSession]>([:])
  private let tracker = IdleTracker()
  /// What `info` reports beyond the dispatcher's own counts.
  public let details: DaemonDetails
  /// Requests and event outcomes since the start, for `info`.
  let statistics = DaemonStatistics()

  /// The transport's frame limit, quoted in `frame_too_large` messages.
  public let maxFrameBytes: Int
  /// Frames of at least this many bytes are parsed and run off the loop thread.
  public let largeFrameBytes: Int
  /// While more than this many bytes wait for a monitoring connection, its event pushes are
  /// skipped (and counted in the next one's `missed`).
  public let monitorBacklogBytes: Int
  /// Where large frames are parsed and run.
  private let largeFrames: DispatchQueue
  /// Gathers the changes of each loop turn into one write (the daemon's journal), or does
  /// nothing. Not an optional: unwrapping an optional existential copies it through its value
  /// witnesses (about 190 instructions), twice per loop turn.
  private let batching: any WriteBatching
  /// Whether events may run straight through the loop turn (else every one is queued).
  public let straightThrough: Bool
  /// The registry's features, fixed once the dispatcher is made: read without a lock.
  let served: [Feature]
  /// The loop's waits for changes its turn replies wait for (``TurnReplies``).
  private let storeWakes = StoreWakes()

  /// - Parameter largeFrameQueue: where large frames are parsed and run; by default a serial
  ///   queue of the dispatcher's own, so they never crowd the machine. (Tests pass a suspended
  ///   queue to hold a large frame in flight.)
  /// - Parameter details: the socket, state directory and journal, for `info`.
  /// - Parameter batching: the storage the features' blocs share, when it batches writes: the
  ///   changes of every request read in one loop turn are then stored in one write (and under
  ///   `--sync always` one sync) before the turn's replies are sent: on the loop thread, or,
  ///   when the turn read several connections under `--sync always`, on the storage's writer
  ///   while the loop serves the next requests.
  /// - Parameter straightThrough: handles the common case on the loop thread, without a queue
  ///   (see above); false queues every event, the one route before (the replies are the same
  ///   bytes: tests compare the two).
  public init(
    registry: FeatureRegistry, version: String, maxFrameBytes: Int = 1 << 20,
    largeFrameBytes: Int = 64 << 10, largeFrameQueue: DispatchQueue? = nil,
    monitorBacklogBytes: Int = 4 << 20, batching: (any WriteBatching)? = nil,
    details: DaemonDetails = DaemonDetails(), straightThrough: Bool = true,
    logger: Logger = .silent
  ) {
    self.details = details
    self.straightThrough = straightThrough
    largeFrames = largeFrameQueue ?? DispatchQueue(label: "state-server.large-frames")
    self.batching = batching ?? NoBatching()
    self.registry = registry
    served = registry.servedFeatures()
    self.version = version
    self.maxFrameBytes = maxFrameBytes
    self.largeFrameBytes = largeFrameBytes
    self.monitorBacklogBytes = monitorBacklogBytes
    self.logger = logger
  }

  /// Waits until the blocs finished what clients started and every reply owed is produced.
  /// Pass it as the server's `drain` hook.
  public func drain() async {
    repeat {
      await registry.settleAll()
      await tracker.waitUntilIdle()
    } while !tracker.isIdle
  }

  /// How many connections are open.
  public var connectionCount: Int { sessions.withLock { $0.count } }

  // MARK: ConnectionDelegate

  /// The loop holds the connection's ``TurnReplies`` (with its session) and hands it back.
  public func openSession(for connection: Connection) -> AnyObject? {
    let session = ClientSession(connection: connection, tracker: tracker)
    sessions.withLock { $0[connection.id] = session }
    logger.debug("client \(connection.id) connected (pid \(connection.peer.pid))")
    return TurnReplies(session: session, statistics: statistics)
  }

  public func connection(_ connection: Connection, didReceive frame: [UInt8]) {
    guard let session = sessions.withLock({ $0[connection.id] }) else { return }
    // Not through the loop's turn (a caller outside the loop): every reply is queued.
    process(frame, session, turn: nil)
  }

  public func connection(
    _ connection: Connection, session turn: AnyObject?, didReceive frame: UnsafeRawBufferPointer
  ) {
    guard frame.count >= largeFrameBytes else {
      // Borrowed, not retained: the loop holds the connection's TurnReplies (``openSession(for:)``
      // made it) through this call. The frame is read where the loop read it. (Bound here, not
      // once for both ways: the large frame's closure takes it, so it was retained for both.)
      guard let held = turn.map(Unmanaged.passUnretained) else { return }
      held._withUnsafeGuaranteedRef { session in
        let turn = unsafeDowncast(session, to: TurnReplies.self)
        process(frame, turn.session, turn: turn)
      }
      return
    }
    guard let held = turn else { return }
    let turn = unsafeDowncast(held, to: TurnReplies.self)
    let session = turn.session
    // Parsing a large frame takes milliseconds (a 1 MiB object of 60,000 members): off the
    // loop thread (a copy of it), so other clients are served meanwhile. The connection's
    // later frames wait, so its requests still run in order; shutdown's drain waits for this
    // one.
    let copy = Array(frame)
    connection.holdFrames()
    tracker.begin()
    largeFrames.async {
      self.process(copy, session, turn: nil)
      connection.resumeFrames()
      self.tracker.end()
    }
  }

  /// Parses and runs one request, on the loop thread within a loop turn (`turn`: the
  /// connection's replies of that turn) or, for a large frame, the `largeFrames` queue.
  private func process(_ frame: [UInt8], _ session: ClientSession, turn: TurnReplies?) {
    frame.withUnsafeBytes { process($0, session, turn: turn) }
  }

  /// ``process(_:_:turn:)`` of the frame `bytes`, read where they lie: the request's head
  /// borrows them.
  private func process(
    _ bytes: UnsafeRawBufferPointer, _ session: ClientSession, turn: TurnReplies?
  ) {
    let connection = session.connection
    let request: RequestHead
    statistics.countRequest()
    do {
      request = try RequestHead(reading: bytes)
    } catch {
      statistics.countRefusal(op: nil)
      logger.debug("client \(connection.id): \(error.error)")
      session.respond(error.reply)
      return
    }
    do {
      // The usual op by the head's one compare (the other ops' switch compares the op's text).
      if request.isSend {
        try send(request, session, turn: turn)
      } else {
        try handle(request, session)
      }
    } catch {
      statistics.countRefusal(op: request.op)
      logger.debug("client \(connection.id): \(request.op): \(error)")
      session.respond(ReplyWriter.failure(id: request.id, error))
    }
  }

  public func connection(_ connection: Connection, didReceiveOversizedFrame byteCount: Int) {
    // Sent at once, ahead of replies still in flight: the transport closes the connection
    // right after this is flushed.
    logger.debug("client \(connection.id): frame of \(byteCount)+ bytes refused")
    connection.queueReply(ReplyWriter.failure(id: nil, frameTooLarge(byteCount)))
  }

  public func connectionDidReachEndOfInput(_ connection: Connection) {
    guard let session = sessions.withLock({ $0[connection.id] }) else {
      connection.close()
      return
    }
    session.endOfInput()
  }

  public func loopTurnWillBegin() {
    batching.beginBatch()
  }

  public func loopTurnDidEnd() {
    batching.commitBatch(connections: 0)
  }

  public func loopTurnDidEnd(_ connections: TurnConnections) {
    // One client alone waits for this batch: write it here, without a hand-off. Several: let
    // the storage sync it beside the loop, which serves them meanwhile.
    batching.commitBatch(connections: connections.count)
    // Then the replies of the events handled straight through, by the connections the turn
    // read (a change the batch did not store yet, being synced beside the loop, is replied to
    // once it is). Each feature is read once for all of them.
    guard straightThrough, connections.count > 0 else { return }
    writeTurnReplies(connections)
  }

  /// Replies waited for changes being stored beside the loop, some of which may be stored now.
  public func storeDidProgress(_ connections: TurnConnections) {
    writeTurnReplies(connections)
  }

  /// Writes the turn replies of `connections` whose changes are stored; the connections whose
  /// replies still wait are kept for the loop's next ``storeDidProgress(_:)``, which a wait
  /// for the first of them brings.
  private func writeTurnReplies(_ connections: TurnConnections) {
    var stored = StoredStates()
    // One wait per pass for the usual single feature, for its first change still on its way
    // (the connections come in no order of their changes): a wait for a later one would hold
    // the earlier ones' replies until it is stored. Another feature's connections ask apiece.
    var feature: Feature?
    var first = UInt64.max
    for index in 0..<connections.count {
      guard let held = connections.unretainedSession(at: index) else { continue }
      // Borrowed, not retained: the loop holds the connection's TurnReplies
      // (``openSession(for:)`` made it) through this call.
      let written = held._withUnsafeGuaranteedRef { held in
        unsafeDowncast(held, to: TurnReplies.self).writeReplies(
          &stored, to: connections, at: index)
      }
      guard !written,
        let reply = held._withUnsafeGuaranteedRef({
          unsafeDowncast($0, to: TurnReplies.self).firstWaiting
        })
      else { continue }
      connections.awaitStore(at: index)
      if feature == nil { feature = reply.feature }
      if feature === reply.feature {
        first = min(first, reply.changed)
      } else {
        storeWakes.wake(connections, when: reply.feature, stores: reply.changed)
      }
    }
    if let feature { storeWakes.wake(connections, when: feature, stores: first) }
  }

  public func connectionClosed(_ connection: Connection) {
    guard let session = sessions.withLock({ $0.removeValue(forKey: connection.id) }) else { return }
    for name in session.takeWatches() {
      registry.feature(named: name)?.watchers.unwatch(connection.id)
    }
    stopMonitoring(session)
    logger.debug("client \(connection.id) disconnected")
  }

  private func frameTooLarge(_ byteCount: Int) -> WireError {
    WireError(
      .frameTooLarge,
      "request line of at least \(byteCount) bytes exceeds the limit of \(maxFrameBytes) bytes "
        + "(stated --max-frame-bytes); the connection is closed")
  }
}

/// The dispatcher's batching without a storage that batches writes.
private struct NoBatching: WriteBatching {
  func beginBatch() {}
  func commitBatch(connections: Int) {}
}
