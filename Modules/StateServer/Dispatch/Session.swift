import BlocCore

/// One client's replies, sent in the order of its requests.
///
/// A reply is *produced* (its state read, its watch started) only when every earlier reply of
/// the connection has been sent, so a `get` pipelined after a `send` sees that event's effect.
/// When nothing is pending, a reply is produced and sent at once on the calling thread; a
/// `send` whose outcome is not known yet waits in the queue, and one task per busy period
/// (not per request) awaits the outcomes in order and sends what became ready.
final class Session: Sendable {
  typealias Produce = @Sendable () -> [UInt8]
  typealias ProduceOutcome = @Sendable (EventOutcome) -> [UInt8]

  private enum Item {
    case bytes([UInt8])
    case ready(Produce)
    case awaiting(EventReceipt, ProduceOutcome)
  }

  private struct State {
    /// Replies not yet sent; `items[head...]` are live. Invariant: when not empty, the first
    /// live item is an unresolved `awaiting` and `draining` is true.
    var items: [Item?] = []
    var head = 0
    var draining = false
    var inputEnded = false

    var isEmpty: Bool { head == items.count }
  }

  let connection: Connection
  private let tracker: IdleTracker
  private let state = Locked(State())
  /// Features this connection watches. Apart from `state`: producers, which run under the
  /// state lock, record watches.
  private let watched = Locked<Set<String>>([])

  init(connection: Connection, tracker: IdleTracker) {
    self.connection = connection
    self.tracker = tracker
  }

  /// Queues a reply that is already built.
  func respond(_ line: [UInt8]) {
    state.withLock { state in
      if state.isEmpty {
        connection.send(line)
      } else {
        state.items.append(.bytes(line))
      }
    }
  }

  /// Queues a reply built when its turn comes.
  func respond(_ produce: @escaping Produce) {
    state.withLock { state in
      if state.isEmpty {
        send(produce())
      } else {
        state.items.append(.ready(produce))
      }
    }
  }

  /// Queues a reply built from an event's outcome, once it is known and its turn comes.
  func respond(after receipt: EventReceipt, _ produce: @escaping ProduceOutcome) {
    let startDrainer = state.withLock { state -> Bool in
      if state.isEmpty, let outcome = receipt.resolvedOutcome {
        connection.send(produce(outcome))
        return false
      }
      state.items.append(.awaiting(receipt, produce))
      if state.draining { return false }
      state.draining = true
      return true
    }
    if startDrainer {
      tracker.begin()
      Task { await self.drain() }
    }
  }

  /// The client will send nothing more: close once every reply owed is sent.
  func endOfInput() {
    state.withLock { state in
      state.inputEnded = true
      if state.isEmpty { connection.close() }
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

  /// Every watched feature, forgotten (the connection closed).
  func takeWatches() -> Set<String> {
    watched.withLock { watched in
      defer { watched = [] }
      return watched
    }
  }

  /// Sends a produced line; an empty one means the producer sent its own.
  private func send(_ line: [UInt8]) {
    if !line.isEmpty { connection.send(line) }
  }

  private func drain() async {
    while true {
      let next = state.withLock { state -> EventReceipt? in
        sendReady(&state)
        guard state.isEmpty else {
          guard case .awaiting(let receipt, _)? = state.items[state.head] else { return nil }
          return receipt
        }
        state.draining = false
        if state.inputEnded { connection.close() }
        return nil
      }
      guard let next else { break }
      _ = await next.outcome
    }
    tracker.end()
  }

  /// Sends leading items that are ready, in order.
  private func sendReady(_ state: inout State) {
    while state.head < state.items.count {
      switch state.items[state.head] {
      case .bytes(let line)?:
        connection.send(line)
      case .ready(let produce)?:
        send(produce())
      case .awaiting(let receipt, let produce)?:
        guard let outcome = receipt.resolvedOutcome else { return }
        connection.send(produce(outcome))
      case nil:
        break
      }
      state.items[state.head] = nil
      state.head += 1
      if state.head == state.items.count {
        state.items.removeAll(keepingCapacity: state.items.count <= 1024)
        state.head = 0
      }
    }
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
