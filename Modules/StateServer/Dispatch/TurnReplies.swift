import BlocCore
import Wire

/// A connection's session as the loop thread holds it: the ``ClientSession``, and the replies
/// of the events the current loop turn handled straight through for it
/// (``Bloc/handleInline(_:)``), written at the turn's end, once their changes are stored.
///
/// Loop thread only (the loop keeps it for the connection and hands it back with every frame
/// and at every turn's end), so the list takes no lock. The session learns only that turn
/// replies are unwritten (``ClientSession/beginTurn()``), once per turn, so that a reply it
/// queues meanwhile waits for them.
final class TurnReplies {
  /// The reply to one event handled straight through.
  struct Reply: Sendable {
    let id: RequestID?
    /// Not retained (a retain and a release per copy of the reply): a feature lives as long as
    /// the dispatcher, which holds every feature it serves (``RequestDispatcher/served``) and
    /// outlives the turns whose replies it writes.
    unowned(unsafe) let feature: Feature
    /// The handler's outcome.
    let outcome: EventOutcome
    /// The sequence number of the event's last change, which waits for storage.
    let changed: UInt64
  }

  let session: ClientSession
  /// The dispatcher's counts, which each reply's final outcome goes into as it is written.
  private let statistics: DaemonStatistics
  // Loop thread only, and no access spans a call that could touch them again (both are
  // swapped out while the replies are written): the run-time exclusivity checks would guard
  // nothing.
  /// This turn's replies, in request order.
  @exclusivity(unchecked) private var replies: [Reply] = []
  /// The buffer the replies are written in; the connection's queue hands back an empty one.
  @exclusivity(unchecked) private var lines: [UInt8] = []
  /// Replies wait for their changes (``writeReplies(_:to:at:)`` returned false).
  @exclusivity(unchecked) private var waiting = false

  init(session: ClientSession, statistics: DaemonStatistics) {
    self.session = session
    self.statistics = statistics
  }

  /// Takes the reply of an event handled straight through, to be written when the turn ends
  /// (``writeReplies(_:to:at:)``): unless an earlier reply of the connection is queued (it must
  /// go first; the caller then queues this one too, and false is returned). Given its parts,
  /// not a made reply: a reply handed in was copied into the list through its fields' value
  /// witnesses (about 125 instructions), one made here is stored field by field.
  func join(
    id: RequestID?, feature: Feature, outcome: EventOutcome, changed: UInt64
  ) -> Bool {
    if replies.isEmpty {
      guard session.beginTurn() else { return false }
    } else if session.hasQueuedReplies {
      // Queued behind the replies joined so far (a `get` pipelined after a `send`).
      return false
    }
    replies.append(Reply(id: id, feature: feature, outcome: outcome, changed: changed))
    return true
  }

  /// Writes the replies whose changes are stored (or refused), in order, into the loop's write
  /// buffer for the connection at `index` of `connections` (``TurnConnections/appendReplies(at:_:)``)
  /// or, when bytes wait in its queue, into one buffer queued behind them
  /// (``TurnConnections/queueReplies(_:at:)``), then lets the session send
  /// what it queued behind them. Called by the loop at the end of the turn that read their
  /// requests; `stored` reads each feature once for the turn. Returns false when replies wait
  /// for their changes (another thread is writing their batch): they stay here, and later
  /// requests' replies join them, until a call once they are stored (the loop's
  /// ``RequestDispatcher/storeDidProgress(_:)``) writes them.
  func writeReplies(
    _ stored: inout StoredStates, to connections: TurnConnections, at index: Int
  ) -> Bool {
    guard !replies.isEmpty else { return true }
    // Worked on as a local, the stored list only swapped: an access to a class's property
    // that spans calls is checked at run time for overlapping accesses.
    var replies: [Reply] = []
    swap(&replies, &self.replies)
    var written = 0
    // The closure takes the list's elements, not the list (a retain and a release).
    let appended = replies.withUnsafeBufferPointer { list in
      connections.appendReplies(at: index) { buffer in
        write(list, &written, &stored, into: &buffer)
      }
    }
    if !appended {
      var lines: [UInt8] = []
      swap(&lines, &self.lines)
      if !lines.isEmpty { lines.removeAll(keepingCapacity: true) }  // it usually comes back empty
      replies.withUnsafeBufferPointer { list in
        write(list, &written, &stored, into: &lines)
      }
      if !lines.isEmpty { connections.queueReplies(&lines, at: index) }
      if lines.isSmallEnoughToKeep { swap(&lines, &self.lines) }
    }
    guard written == replies.count else {
      if written > 0 { replies.removeFirst(written) }
      swap(&replies, &self.replies)
      if !waiting {
        waiting = true
        session.tracker.begin()  // so that shutdown's drain waits for these replies too
      }
      return false
    }
    if replies.count == 1 {
      // A client waiting for each reply: removeAll(keepingCapacity:) takes the general
      // replaceSubrange, about 170 instructions for one reply (less per reply for many).
      replies.removeLast()
    } else {
      replies.removeAll(keepingCapacity: replies.count <= 1024)
    }
    swap(&replies, &self.replies)
    session.endTurn()
    if waiting {
      waiting = false
      session.tracker.end()
    }
    return true
  }

  /// Writes `replies[written...]` into `buffer`, in order, as long as their outcomes are known.
  private func write(
    _ replies: UnsafeBufferPointer<Reply>, _ written: inout Int, _ stored: inout StoredStates,
    into buffer: inout [UInt8]
  ) {
    while written < replies.count {
      let reply = replies.baseAddress! + written
      // Borrowed: a feature lives as long as the dispatcher (``Reply/feature``).
      let wrote = Unmanaged.passUnretained(reply.pointee.feature)._withUnsafeGuaranteedRef {
        write(reply, $0, &stored, into: &buffer)
      }
      guard wrote else { break }
      written += 1
    }
  }

  /// Writes the reply at `reply` after the lines in `buffer` once its outcome is known (false
  /// while its change is on its way), showing the feature's stored state (read once per turn
  /// end: `stored`). Read through a pointer, `feature` being the reply's, borrowed: a copy of
  /// the reply, or a feature read from it for each call, costs copies, retains and releases.
  private func write(
    _ reply: UnsafePointer<Reply>, _ feature: Feature, _ stored: inout StoredStates,
    into buffer: inout [UInt8]
  ) -> Bool {
    let changed = reply.pointee.changed
    // The handler's outcome, or the storage's error when its change could not be stored (a
    // refused change is never replied as ok).
    let final: EventOutcome
    switch stored.status(of: feature, changed) {
    case .stored: final = reply.pointee.outcome
    case .failed(let error):
      final = reply.pointee.outcome.isHandled ? .failed(error) : reply.pointee.outcome
    case .pending: return false
    }
    statistics.count(final)
    do {
      try stored.withSnapshot(of: feature, including: changed) { snapshot in
        ReplyWriter.appendOutcome(id: reply.pointee.id, final, snapshot, to: &buffer)
      }
    } catch {
      buffer.append(
        contentsOf: RequestDispatcher.encodingFailure(id: reply.pointee.id, feature, error))
    }
    return true
  }

  /// The first reply still waiting for its change (after ``writeReplies(_:to:at:)`` returned
  /// false).
  var firstWaiting: Reply? { replies.first }
}

/// What the replies written at a turn's end read of their features, once per feature: where
/// its changes stand on their way to storage (one read answers all of its replies) and its
/// newest stored state, taken with it from the text kept when the state was written
/// (``Feature/storeProgress()``; read from the bloc only when that text is not stored yet, or
/// when a reply is about a newer change; its replies all show the newest stored state, as a
/// reply produced one by one would, since the turn's batch was written before).
struct StoredStates {
  // The first feature's reads, field by field (a struct of them, optional until read, would
  // be copied and destroyed through generic code on every use), and the other features',
  // each in a StoredStates of its own: an array only for a turn that replies for several
  // features, no allocation in the usual turn.
  private var feature: Feature?
  private var progress = StoreProgress.nothingPersisted
  private var snapshot: StateSnapshot?
  private var others: [StoredStates] = []

  /// Where the reads of `feature` are, read now unless the turn read them already: -1 for the
  /// first feature's, else their index in `others`.
  @inline(__always)
  private mutating func find(_ feature: Feature) -> Int {
    guard let first = self.feature else {
      read(feature)
      return -1
    }
    if first === feature { return -1 }
    if let index = others.firstIndex(where: { $0.feature === feature }) { return index }
    var reads = StoredStates()
    reads.read(feature)
    others.append(reads)
    return others.count - 1
  }

  private mutating func read(_ feature: Feature) {
    self.feature = feature
    (progress, snapshot) = feature.storeProgress()
  }

  /// Whether the change `sequence` of `feature` is stored, its write failed, or it is still on
  /// its way.
  mutating func status(of feature: Feature, _ sequence: UInt64) -> StoreStatus {
    let at = find(feature)
    let status =
      at < 0 ? progress.status(of: sequence) : others[at].progress.status(of: sequence)
    // Nil for a change a rollback may have given up, or a failed one: the bloc tells.
    return status ?? feature.storeStatus(of: sequence)
  }

  /// Runs `body` with the newest stored state of `feature`, read again unless the one read
  /// last for it holds the change `sequence` (a change that could not be stored is never in
  /// it). Lent, not returned: a copy retained and released its text per reply.
  mutating func withSnapshot<Result>(
    of feature: Feature, including sequence: UInt64, _ body: (StateSnapshot) -> Result
  ) throws -> Result {
    let at = find(feature)
    guard at < 0 else {
      if (others[at].snapshot?.sequence ?? 0) < sequence || others[at].snapshot == nil {
        others[at].snapshot = try feature.storedSnapshot()
      }
      return body(others[at].snapshot!)
    }
    if (snapshot?.sequence ?? 0) < sequence || snapshot == nil {
      snapshot = try feature.storedSnapshot()
    }
    return body(snapshot!)
  }
}
