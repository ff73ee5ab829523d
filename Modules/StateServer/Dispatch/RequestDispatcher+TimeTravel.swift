import BlocCore
import Wire

/// `history`, `goto` and `restore`: a feature's retained changes, and returning to one of them
/// or to a given state as a change of its own.
extension RequestDispatcher {
  /// Which retained changes `history` lists.
  enum HistoryWindow {
    case last(Int)
    case since(UInt64)
  }

  func history(_ request: RequestHead, _ session: ClientSession) throws(WireError) {
    let feature = try feature(of: request)
    try requireHistory(feature, request.op)
    let window = try historyWindow(of: request, feature)
    let id = request.id
    session.respond { Self.transitionsReply(id: id, feature, window) }
  }

  func goto(_ request: RequestHead, _ session: ClientSession) throws(WireError) {
    let feature = try feature(of: request)
    try requireHistory(feature, request.op)
    let history: RetainedHistory
    do {
      history = try feature.history()
    } catch {
      throw WireError(
        .internalError, "cannot encode the state of '\(feature.name)' as JSON: \(error)")
    }
    let target = try sequence(of: request, feature, history)
    guard let change = history.change(target) else {
      let why =
        target > history.current
        ? "it is in the future (the newest is \(history.current))"
        : target < history.oldest
          ? "it is older than the oldest retained" : "that change was never stored"
      throw WireError(
        .seqNotRetained,
        "seq \(target) is not retained for '\(feature.name)': \(why); retained: \(history.range)")
    }
    // Applied now, in frame order, like undo; answered once stored.
    let made: ChangeReport?
    do {
      made = try feature.goto(change)
    } catch {
      throw WireError(
        .internalError,
        "cannot read the stored state of seq \(target) of '\(feature.name)': \(error)")
    }
    respond(toChange: made, request, feature, session, target: target)
  }

  func restore(_ request: RequestHead, _ session: ClientSession) throws(WireError) {
    let feature = try feature(of: request)
    guard let state = request["state"] else {
      throw WireError(
        .missingField,
        "missing field 'state' (an object: a whole state of '\(feature.name)', as get shows it)")
    }
    let made = try feature.restore(state)
    respond(toChange: made, request, feature, session)
  }

  /// Replies to a change a request made (`undo`, `redo`, `goto`, `restore`) once it is stored:
  /// `changed`, the state right after it and its `seq` (`storage_failed` if it could not be
  /// stored); at once with `changed` false when it made none.
  ///
  /// Once stored, the change is pushed to the feature's monitors, with the op as its cause.
  func respond(
    toChange made: ChangeReport?, _ request: RequestHead, _ feature: Feature,
    _ session: ClientSession, target: UInt64? = nil
  ) {
    let id = request.id
    let op = request.op
    guard let made else {
      session.respond { Self.historyReply(id: id, op: op, feature, changed: false, .handled) }
      return
    }
    // The state right after the change, read now: by the time it is stored, later requests
    // may have moved the state on. Not stored yet: the reply carrying it waits until it is.
    let after = Result { try feature.currentSnapshot() }
    session.respond(
      known: nil,
      whenResolved: { resolve in
        feature.whenStored(made.sequence) { error in
          if error == nil {
            feature.monitors.report(
              ConcludedEvent(
                cause: op, event: nil, target: target, outcome: .handled, sequence: made.sequence,
                before: made.before, after: made.after))
          }
          resolve(error.map { .failed($0) } ?? .handled)
        }
      },
      { outcome, _ in Self.historyReply(id: id, op: op, feature, changed: true, outcome, after) })
  }

  private func requireHistory(_ feature: Feature, _ op: String) throws(WireError) {
    guard feature.historyLimit == 0 else { return }
    let able = registry.features.filter { $0.historyLimit > 0 }.map(\.name)
    let others =
      able.isEmpty ? "no feature has" : "features with history: " + able.joined(separator: ", ")
    throw WireError(
      .notSupported,
      "feature '\(feature.name)' keeps no history of its changes (it stores no state), so it "
        + "cannot \(op); \(others)")
  }

  /// `last` N (1 to the history limit) or `since` a seq; neither: the last 100.
  private func historyWindow(
    of request: RequestHead, _ feature: Feature
  ) throws(WireError)
    -> HistoryWindow
  {
    let limit = feature.historyLimit
    switch (request["last"], request["since"]) {
    case (nil, nil):
      return .last(min(100, limit))
    case (.some, .some):
      throw WireError(
        .invalidField, "give 'last' (how many of the newest changes) or 'since' (a seq), not both")
    case (let last?, nil):
      guard case .integer(let count) = last, count >= 1, count <= limit else {
        throw WireError(
          .invalidField,
          "field 'last' must be an integer from 1 to \(limit) (the history limit, stated "
            + "--history-limit), got \(Self.quote(last))")
      }
      return .last(Int(count))
    case (nil, let since?):
      guard case .integer(let sequence) = since, sequence >= 0 else {
        throw WireError(
          .invalidField,
          "field 'since' must be a seq: an integer from 0, got \(Self.quote(since))")
      }
      return .since(UInt64(sequence))
    }
  }

  /// `seq` of `goto`: a non-negative integer.
  private func sequence(
    of request: RequestHead, _ feature: Feature, _ history: RetainedHistory
  ) throws(WireError) -> UInt64 {
    guard let value = request["seq"] else {
      throw WireError(
        .missingField,
        "missing field 'seq' (the seq of '\(feature.name)' to go to; retained: \(history.range))")
    }
    guard case .integer(let sequence) = value, sequence >= 0 else {
      throw WireError(
        .invalidField,
        "field 'seq' must be a seq: an integer from 0 (retained for '\(feature.name)': "
          + "\(history.range)), got \(Self.quote(value))")
    }
    return UInt64(sequence)
  }

  /// A value sent, quoted for a message (at most about 60 characters of it).
  static func quote(_ value: JSON) -> String {
    let text = value.serializedString()
    return text.count > 60 ? String(text.prefix(60)) + "…" : text
  }

  static func transitionsReply(
    id: RequestID?, _ feature: Feature, _ window: HistoryWindow
  )
    -> [UInt8]
  {
    let history: RetainedHistory
    do {
      history = try feature.history()
    } catch {
      return encodingFailure(id: id, feature, error)
    }
    let changes: ArraySlice<RetainedHistory.Change>
    switch window {
    case .last(let count): changes = history.last(count)
    case .since(let sequence): changes = history.since(sequence)
    }
    var reply = ReplyWriter(id: id, ok: true, capacity: 256 + changes.count * 128)
    reply.string("feature", feature.name)
    reply.integer("oldest", Int64(clamping: history.oldest))
    reply.integer("seq", Int64(clamping: history.current))
    reply.key("transitions")
    reply.writer.byte(UInt8(ascii: "["))
    for (offset, change) in changes.enumerated() {
      if offset > 0 { reply.writer.byte(UInt8(ascii: ",")) }
      feature.writeTransition(change, to: &reply.writer)
    }
    reply.writer.byte(UInt8(ascii: "]"))
    return reply.finish()
  }
}
