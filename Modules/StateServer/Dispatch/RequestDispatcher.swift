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
  /// Gathers the changes of each loop turn into one write (the daemon's journal).
  private let batching: (any WriteBatching)?
  /// Whether events may run straight through the loop turn (else every one is queued).
  public let straightThrough: Bool
  /// The registry's features, fixed once the dispatcher is made: read without a lock.
  let served: [Feature]

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
    self.batching = batching
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

  public func openSession(for connection: Connection) -> AnyObject? {
    let session = ClientSession(connection: connection, tracker: tracker)
    sessions.withLock { $0[connection.id] = session }
    logger.debug("client \(connection.id) connected (pid \(connection.peer.pid))")
    return session
  }

  public func connection(_ connection: Connection, didReceive frame: [UInt8]) {
    self.connection(connection, session: sessions.withLock { $0[connection.id] }, didReceive: frame)
  }

  public func connection(
    _ connection: Connection, session: AnyObject?, didReceive frame: [UInt8]
  ) {
    guard let session = session as? ClientSession else { return }
    guard frame.count >= largeFrameBytes else {
      process(frame, session, onLoop: true)
      return
    }
    // Parsing a large frame takes milliseconds (a 1 MiB object of 60,000 members): off the
    // loop thread, so other clients are served meanwhile. The connection's later frames wait,
    // so its requests still run in order; shutdown's drain waits for this one.
    connection.holdFrames()
    tracker.begin()
    largeFrames.async {
      self.process(frame, session, onLoop: false)
      connection.resumeFrames()
      self.tracker.end()
    }
  }

  /// Parses and runs one request, on the loop thread (`onLoop`, within a loop turn) or, for a
  /// large frame, the `largeFrames` queue.
  private func process(_ frame: [UInt8], _ session: ClientSession, onLoop: Bool) {
    let connection = session.connection
    let request: RequestHead
    statistics.countRequest()
    do {
      request = try RequestHead(parsing: frame)
    } catch {
      statistics.countRefusal(op: nil)
      logger.debug("client \(connection.id): \(error.error)")
      session.respond(error.reply)
      return
    }
    do {
      try handle(request, session, onLoop: onLoop)
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
    batching?.beginBatch()
  }

  public func loopTurnDidEnd() {
    loopTurnDidEnd(sessions: [])
  }

  public func loopTurnDidEnd(sessions turnSessions: [AnyObject]) {
    // One client alone waits for this batch: write it here, without a hand-off. Several: let
    // the storage sync it beside the loop, which serves them meanwhile.
    batching?.commitBatch(othersWaiting: turnSessions.count > 1)
    // Then the replies of the events handled straight through, by the sessions the turn read
    // (a change the batch did not store yet, being synced beside the loop, is replied to once
    // it is). Each feature's stored state is read once for all of them.
    guard straightThrough, !turnSessions.isEmpty else { return }
    var stored = StoredStates()
    for case let session as ClientSession in turnSessions {
      session.writeTurnReplies(statistics, &stored)
    }
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

  // MARK: Ops

  private func handle(
    _ request: RequestHead, _ session: ClientSession, onLoop: Bool
  ) throws(WireError) {
    let id = request.id
    switch request.op {
    case Request.Op.send:
      try send(request, session, onLoop: onLoop)
    case Request.Op.get:
      let feature = try feature(of: request)
      if let selection = try selection(of: request) {
        session.respond { Self.selectedReply(id: id, feature, selection) }
      } else {
        session.respond { self.stateReply(id: id, feature) }
      }
    case Request.Op.watch:
      let feature = try feature(of: request)
      let selection = try selection(of: request)
      session.respond { self.watchReply(id: id, feature, session, selection) }
    case Request.Op.monitor:
      let features = try monitoredFeatures(of: request)
      session.respond { self.monitorReply(id: id, features, session) }
    case Request.Op.unmonitor:
      session.respond {
        var reply = ReplyWriter(id: id, ok: true)
        reply.bool("was_monitoring", !self.stopMonitoring(session).isEmpty)
        return reply.finish()
      }
    case Request.Op.unwatch:
      let feature = try feature(of: request)
      session.respond {
        var reply = ReplyWriter(id: id, ok: true)
        let watching = session.removeWatch(feature.name)
        if watching { feature.watchers.unwatch(session.connection.id) }
        reply.bool("was_watching", watching)
        return reply.finish()
      }
    case Request.Op.features:
      var reply = ReplyWriter(id: id, ok: true)
      reply.json("features", .array(registry.features.map(Self.summary)))
      session.respond(reply.finish())
    case Request.Op.describe:
      let feature = try feature(of: request)
      session.respond(Self.describeReply(id: id, feature))
    case Request.Op.undo, Request.Op.redo:
      try undoOrRedo(request, session)
    case Request.Op.history:
      try history(request, session)
    case Request.Op.goto:
      try goto(request, session)
    case Request.Op.restore:
      try restore(request, session)
    case Request.Op.info:
      session.respond { self.infoReply(id: id) }
    case Request.Op.ping:
      var reply = ReplyWriter(id: id, ok: true)
      reply.string("daemon", version)
      reply.integer("protocol", Int64(ProtocolInfo.version))
      session.respond(reply.finish())
    default:
      throw WireError(
        .unknownOp,
        "unknown op '\(request.op.prefix(64))'; valid ops: "
          + Request.Op.all.joined(separator: ", "))
    }
  }

  private func send(
    _ request: RequestHead, _ session: ClientSession, onLoop: Bool
  ) throws(WireError) {
    let feature = try feature(of: request)
    // Decoded by the feature's declaration straight from the frame's bytes.
    let straight = straightThrough && onLoop
    let added = try withEvent(of: request, feature) { event throws(WireError) in
      let added = try feature.add(event, straightThrough: straight)
      if logger.isEnabled(.debug) {
        logger.debug("client \(session.connection.id): send \(feature.name) \(event.json)")
      }
      return added
    }
    let id = request.id
    switch added {
    case .queued(let receipt):
      session.respond(after: receipt, outcomeProducer(id: id, feature))
    case .handled(let outcome, 0):
      // Final already (no change waits for storage): replied like any known outcome, at once
      // unless earlier replies are owed.
      session.respond(
        known: outcome, whenResolved: { $0(outcome) }, outcomeProducer(id: id, feature))
    case .handled(let outcome, let changed):
      let reply = TurnReply(id: id, feature: feature, outcome: outcome, changed: changed)
      // Written when the loop turn ends (loopTurnDidEnd(sessions:)).
      if session.joinTurn(reply) { return }
      // An earlier reply of this connection is queued: this one waits behind it, and for
      // its change to be stored.
      session.respond(
        known: nil,
        whenResolved: { resolved in
          feature.whenStored(changed) { error in
            guard let error, outcome.isHandled else { return resolved(outcome) }
            resolved(.failed(error))
          }
        }, outcomeProducer(id: id, feature))
    }
  }

  /// Builds a `send`'s reply once its outcome is known, and counts the outcome.
  private func outcomeProducer(
    id: RequestID?, _ feature: Feature
  ) -> ClientSession.ProduceOutcome {
    let statistics = statistics
    return { outcome, buffer in
      statistics.count(outcome)
      return Self.outcomeReply(id: id, feature, outcome, reusing: consume buffer)
    }
  }

  private func undoOrRedo(_ request: RequestHead, _ session: ClientSession) throws(WireError) {
    let feature = try feature(of: request)
    let op = request.op
    guard feature.keepsHistory else {
      let able = registry.features.filter(\.keepsHistory).map(\.name)
      let others =
        able.isEmpty ? "no feature has" : "features with history: " + able.joined(separator: ", ")
      throw WireError(
        .notSupported, "feature '\(feature.name)' keeps no history, so it cannot \(op); \(others)")
    }
    // Applied now, in frame order with the events this connection added before it. The
    // reply (state after it) waits for earlier replies and, like a `send`'s, until the change
    // is stored: an acknowledged undo survives a crash.
    let made = feature.timeTravel.step(op == Request.Op.redo)
    respond(toChange: made, request, feature, session)
  }

  // MARK: Watching and monitoring (the other replies: RequestDispatcher+Replies.swift)

  private func watchReply(
    id: RequestID?, _ feature: Feature, _ session: ClientSession, _ selection: StateSelection?
  ) -> [UInt8] {
    let snapshot: StateSnapshot
    do {
      snapshot = try feature.storedSnapshot()
    } catch {
      return Self.encodingFailure(id: id, feature, error)
    }
    var reply = ReplyWriter(id: id, ok: true)
    var selected = JSON.null
    if let selection {
      let state = snapshot.parsed()
      guard selection.isPresent(in: state) else {
        return ReplyWriter.failure(id: id, Self.absentMember(selection, feature, state))
      }
      selected = selection.value(in: state)
      reply.integer("seq", Int64(clamping: snapshot.sequence))
      reply.string("select", selection.text)
      reply.json("value", selected)
    } else {
      reply.state(snapshot)
    }
    // Queued before the watch starts, so no push of it can come first.
    session.connection.queueReply(reply.finish())
    session.addWatch(feature.name)
    feature.watchers.watch(
      session.connection, seen: snapshot.sequence, selection: selection, selected: selected)
    return []
  }

  private func monitorReply(
    id: RequestID?, _ features: [Feature], _ session: ClientSession
  ) -> [UInt8] {
    let names = features.map(\.name)
    for name in session.setMonitors(names) where !names.contains(name) {
      registry.feature(named: name)?.monitors.remove(session.connection.id)
    }
    var reply = ReplyWriter(id: id, ok: true)
    reply.json("monitoring", .array(names.map(JSON.string)))
    // Queued before monitoring starts, so no push can come first.
    session.connection.queueReply(reply.finish())
    for feature in features {
      feature.monitors.add(session.connection, backlogBytes: monitorBacklogBytes)
    }
    return []
  }

  /// Ends the connection's monitors; returns the features it monitored.
  @discardableResult
  private func stopMonitoring(_ session: ClientSession) -> [String] {
    let monitored = session.setMonitors([])
    for name in monitored {
      registry.feature(named: name)?.monitors.remove(session.connection.id)
    }
    return monitored
  }
}
