import BlocCore

/// One client's replies, sent in the order of its requests.
///
/// A reply is *produced* (its state read, its watch started) only when every earlier reply of
/// the connection has been sent, so a `get` pipelined after a `send` sees that event's effect.
/// When nothing is pending, a reply is produced and sent at once on the calling thread. A
/// `send` whose outcome is not known yet waits in the queue; its receipt's `onResolve`
/// callback records the outcome and, on the resolving thread, queues every reply that became
/// ready (the ready prefix of the queue), under the session's lock. No task is involved.
///
/// The common case skips the queue: an event the loop handled straight through while nothing
/// was queued (``joinTurn(_:)``) leaves a ``TurnReply``, written when the loop turn ends, after
/// its journal write (``writeTurnReplies(_:_:)``). Those come before every queued
/// reply: whatever is queued meanwhile waits behind a `.turn` item until they are written.
final class ClientSession: Sendable {
  typealias Produce = @Sendable () -> [UInt8]
  /// Builds a reply from an outcome, in the buffer it is given when it can (the session's
  /// spare one: no allocation per reply).
  typealias ProduceOutcome = @Sendable (EventOutcome, consuming [UInt8]) -> [UInt8]

  private enum Item {
    case bytes([UInt8])
    case ready(Produce)
    case awaiting(ProduceOutcome)
    case resolved(EventOutcome, ProduceOutcome)
    /// Stands for the turn replies (`State.turn`): the items after it wait until they are
    /// written. Always the first item when present.
    case turn
    case done
  }

  private struct State {
    /// Replies not yet sent; `items[head...]` are live. Invariant: when not empty, the first
    /// live item is an unresolved `awaiting`, and the session counts as busy in the tracker.
    var items: [Item] = []
    var head = 0
    /// How many items were removed from the front of `items` (tickets stay valid).
    var removed = 0
    var inputEnded = false
    /// The storage of the last outcome reply, emptied and reused for the next.
    var spare: [UInt8] = []
    /// Replies of events handled straight through, in request order; `turn[turnHead...]` are
    /// not written yet. They come before every item.
    var turn: [TurnReply] = []
    var turnHead = 0
    /// A callback waits for the store of `turn[turnHead]` (its change was not written by the
    /// end of its turn: another thread was writing the journal).
    var awaitingStore = false

    var isEmpty: Bool { head == items.count }
    var hasTurnReplies: Bool { turnHead < turn.count }
    /// Nothing waits: a reply can be produced and sent at once.
    var isIdle: Bool { isEmpty && !hasTurnReplies }

    /// Before queueing an item: while turn replies are unwritten and nothing is queued, the
    /// `.turn` item goes first. Returns whether the session just became busy.
    mutating func queueBehindTurn() -> Bool {
      guard isEmpty else { return false }
      if hasTurnReplies { items.append(.turn) }
      return true
    }

    /// Builds `produce`'s reply in the spare buffer and queues it, then keeps the buffer.
    mutating func queueReply(
      _ outcome: EventOutcome, _ produce: ProduceOutcome, on connection: Connection
    ) {
      var buffer: [UInt8] = []
      swap(&buffer, &spare)
      let line = produce(outcome, consume buffer)
      connection.queueReply(line)  // copies the line: the buffer is the session's alone again
      if line.capacity <= 1 << 16 { spare = line }  // a huge state's buffer is not kept
    }
  }

  let connection: Connection
  private let tracker: IdleTracker
  private let state = Locked(State())
  /// Features this connection watches. Apart from `state`: producers, which run under the
  /// state lock, record watches.
  private let watched = Locked<Set<String>>([])
  /// Features this connection monitors (`monitor`), in the order asked.
  private let monitored = Locked<[String]>([])

  init(connection: Connection, tracker: IdleTracker) {
    self.connection = connection
    self.tracker = tracker
  }

  /// Queues a reply that is already built.
  func respond(_ line: [UInt8]) {
    state.withLock { state in
      if state.isIdle {
        connection.queueReply(line)
      } else {
        if state.queueBehindTurn() { tracker.begin() }
        state.items.append(.bytes(line))
      }
    }
  }

  /// Queues a reply built when its turn comes.
  func respond(_ produce: @escaping Produce) {
    state.withLock { state in
      if state.isIdle {
        queueProduced(produce())
      } else {
        if state.queueBehindTurn() { tracker.begin() }
        state.items.append(.ready(produce))
      }
    }
  }

  /// Queues a reply built from an event's outcome, once it is known and its turn comes.
  func respond(after receipt: EventReceipt, _ produce: @escaping ProduceOutcome) {
    respond(known: receipt.resolvedOutcome, whenResolved: receipt.onResolve, produce)
  }

  /// Queues a reply built from an outcome that `whenResolved` reports (once, on any thread),
  /// once it is known and its turn comes. `known` is the outcome when it is known already.
  func respond(
    known: EventOutcome?,
    whenResolved: (@escaping @Sendable (EventOutcome) -> Void) -> Void,
    _ produce: @escaping ProduceOutcome
  ) {
    let ticket = state.withLock { state -> Int? in
      if state.isIdle, let known {
        state.queueReply(known, produce, on: connection)
        return nil
      }
      if state.queueBehindTurn() { tracker.begin() }
      state.items.append(.awaiting(produce))
      return state.removed + state.items.count - 1
    }
    guard let ticket else { return }
    // Outside the lock: the callback runs at once when the outcome is already known.
    whenResolved { outcome in self.resolve(ticket, outcome) }
  }

  /// Takes the reply of an event handled straight through, to be written when the loop turn
  /// that read it ends (the loop hands the turn's sessions to the dispatcher): unless replies
  /// are queued (they would have to come first; the caller then queues this one too, and
  /// false is returned).
  func joinTurn(_ reply: TurnReply) -> Bool {
    state.withLock { state -> Bool in
      guard state.isEmpty else { return false }
      state.turn.append(reply)
      return true
    }
  }

  /// Writes the turn replies whose changes are stored (or refused), in order, then what was
  /// queued behind them. Called by the loop at the end of the turn that read their requests
  /// (the loop flushes the connection then, so no wake-up is posted); the replies show the
  /// stored states in `stored`.
  func writeTurnReplies(_ statistics: DaemonStatistics, _ stored: inout StoredStates) {
    writeTurnReplies(atTurnEnd: true, statistics, &stored)
  }

  /// ``writeTurnReplies(_:_:)``, or (not `atTurnEnd`) by the callback of a store that came
  /// after the turn's end.
  private func writeTurnReplies(
    atTurnEnd: Bool, _ statistics: DaemonStatistics, _ stored: inout StoredStates
  ) {
    var waitFor: TurnReply?
    let idle = state.withLock { state -> Bool in
      if !atTurnEnd { state.awaitingStore = false }
      guard state.hasTurnReplies || !atTurnEnd else { return false }
      // Every reply ready is written into one buffer (the session's spare one), queued once.
      var lines: [UInt8] = []
      swap(&lines, &state.spare)
      lines.removeAll(keepingCapacity: true)
      while state.hasTurnReplies {
        let reply = state.turn[state.turnHead]
        guard let final = reply.finalOutcome() else {
          // Written by a batch that another thread is writing: wait for it.
          if !state.awaitingStore {
            state.awaitingStore = true
            waitFor = reply
          }
          break
        }
        statistics.count(final)
        reply.write(final, &stored, into: &lines)
        state.turnHead += 1
      }
      if !lines.isEmpty {
        if atTurnEnd {
          connection.queueTurnReplies(&lines)
        } else {
          connection.queueReply(lines)
        }
      }
      if lines.capacity <= 1 << 16 { state.spare = lines }
      if state.hasTurnReplies { return false }
      state.turn.removeAll(keepingCapacity: state.turn.count <= 1024)
      state.turnHead = 0
      guard !state.isEmpty else {
        if state.inputEnded { connection.close() }
        return false
      }
      guard case .turn = state.items[state.head] else { return false }
      // Queued meanwhile, behind the `.turn` item: their turn now.
      state.items[state.head] = .done
      state.head += 1
      queueReady(&state)
      guard state.isEmpty else { return false }
      if state.inputEnded { connection.close() }
      return true
    }
    if idle { tracker.end() }
    guard let waitFor else { return }
    tracker.begin()  // so that shutdown's drain waits for this reply too
    waitFor.feature.whenStored(waitFor.changed) { _ in
      var stored = StoredStates()
      self.writeTurnReplies(atTurnEnd: false, statistics, &stored)
      self.tracker.end()
    }
  }

  /// The client will send nothing more: close once every reply owed is sent.
  func endOfInput() {
    state.withLock { state in
      state.inputEnded = true
      if state.isIdle { connection.close() }
    }
  }

  /// Records a watch; returns false if it was already recorded.
  @discardableResult
  func addWatch(_ feature: String) -> Bool {
    watched.withLock { $0.insert(feature).inserted }
  }

  /// Forgets a watch; returns whether it was recorded.
  @discardableResult
  func removeWatch(_ feature: String) -> Bool {
    watched.withLock { $0.remove(feature) != nil }
  }

  /// Replaces the monitored features; returns those monitored before.
  func setMonitors(_ features: [String]) -> [String] {
    monitored.withLock { monitored in
      defer { monitored = features }
      return monitored
    }
  }

  /// Every watched feature, forgotten (the connection closed).
  func takeWatches() -> Set<String> {
    watched.withLock { watched in
      defer { watched = [] }
      return watched
    }
  }

  /// Queues a produced line; an empty one means the producer queued its own.
  private func queueProduced(_ line: [UInt8]) {
    if !line.isEmpty { connection.queueReply(line) }
  }

  /// An awaited outcome is known: record it and queue what became ready.
  private func resolve(_ ticket: Int, _ outcome: EventOutcome) {
    let idle = state.withLock { state -> Bool in
      let index = ticket - state.removed
      guard index >= state.head, index < state.items.count,
        case .awaiting(let produce) = state.items[index]
      else { return false }
      state.items[index] = .resolved(outcome, produce)
      guard index == state.head else { return false }
      queueReady(&state)
      guard state.isEmpty else { return false }
      if state.inputEnded { connection.close() }
      return true
    }
    if idle { tracker.end() }
  }

  /// Queues leading items that are ready, in order, and drops them from the queue.
  private func queueReady(_ state: inout State) {
    while state.head < state.items.count {
      switch state.items[state.head] {
      case .bytes(let line):
        connection.queueReply(line)
      case .ready(let produce):
        queueProduced(produce())
      case .resolved(let outcome, let produce):
        state.queueReply(outcome, produce, on: connection)
      case .awaiting, .turn:
        // Still busy: drop the sent prefix now and then, so the queue stays short.
        if state.head >= 64, state.head * 2 >= state.items.count {
          state.items.removeFirst(state.head)
          state.removed += state.head
          state.head = 0
        }
        return
      case .done:
        break
      }
      state.items[state.head] = .done
      state.head += 1
    }
    // Empty: start over, keeping a moderate buffer.
    state.removed += state.items.count
    state.items.removeAll(keepingCapacity: state.items.count <= 1024)
    state.head = 0
  }
}

/// Counts sessions with replies in flight, so shutdown can wait until they are all sent.
final class IdleTracker: Sendable {
  private struct State {
    var busy = 0
    var waiters: [CheckedContinuation<Void, Never>] = []
  }
  private let state = Locked(State())

  func begin() { state.withLock { $0.busy += 1 } }

  func end() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.busy -= 1
      guard state.busy == 0 else { return [] }
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  var isIdle: Bool { state.withLock { $0.busy == 0 } }

  func waitUntilIdle() async {
    await withCheckedContinuation { continuation in
      let idle = state.withLock { state -> Bool in
        if state.busy == 0 { return true }
        state.waiters.append(continuation)
        return false
      }
      if idle { continuation.resume() }
    }
  }
}
