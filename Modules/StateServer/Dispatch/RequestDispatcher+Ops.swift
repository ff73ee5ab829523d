import BlocCore
import Wire

/// The ops: each request's op run against its feature, its reply given to the session.
extension RequestDispatcher {
  /// Runs every op but `send` (``send(_:_:turn:)``).
  func handle(_ request: RequestHead, _ session: ClientSession) throws(WireError) {
    let id = request.id
    switch request.op {
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

  /// Runs a `send`: within a loop turn (`turn`: the connection's replies of that turn) the
  /// event may be handled straight through, its reply written when the turn ends.
  func send(
    _ request: RequestHead, _ session: ClientSession, turn: TurnReplies?
  ) throws(WireError) {
    let feature = try feature(of: request)
    // Decoded by the feature's declaration straight from the frame's bytes.
    let straight = straightThrough && turn != nil
    let added = try feature.add(eventOf: request, straightThrough: straight)
    if logger.isEnabled(.debug) {
      let event = request["event"] ?? .null
      logger.debug("client \(session.connection.id): send \(feature.name) \(event)")
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
      // Written when the loop turn ends (loopTurnDidEnd(_:)).
      if let turn, turn.join(id: id, feature: feature, outcome: outcome, changed: changed) {
        return
      }
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
}
