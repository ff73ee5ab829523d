import BlocCore
import Synchronization

/// One client's replies, sent in the order of its requests.
///
/// A reply is *produced* (its state read, its watch started) only when every earlier reply of
/// the connection has been sent, so a `get` pipelined after a `send` sees that event's effect.
/// When nothing is pending, a reply is produced and sent at once on the calling thread. A
/// `send` whose outcome is not known yet waits in the queue; its receipt's `onResolve`
/// callback records the outcome and, on the resolving thread, queues every reply that became
/// ready (the ready prefix of the queue), under the session's lock. No task is involved.
///
/// The common case skips the queue and the lock: an event the loop handled straight through
/// while nothing was queued leaves its reply in the loop's ``TurnReplies``, written when the
/// loop turn ends, after its journal write. Those come before every queued reply: whatever is
/// queued meanwhile waits behind a `.turn` item until they are written (ClientSession+Turn).
final class ClientSession: Sendable {
  typealias Produce = @Sendable () -> [UInt8]
  /// Builds a reply from an outcome, in the buffer it is given when it can (the session's
  /// spare one: no allocation per reply).
  typealias ProduceOutcome = @Sendable (EventOutcome, consuming [UInt8]) -> [UInt8]

  enum Item {
    case bytes([UInt8])
    case ready(Produce)
    case awaiting(ProduceOutcome)
    case resolved(EventOutcome, ProduceOutcome)
    /// Stands for the turn replies not written yet: the items after it wait until they are.
    /// Always the first item when present.
    case turn
    case done
  }

  struct State {
    /// Replies not yet sent; `items[head...]` are live. Invariant: when not empty, the first
    /// live item is an unresolved `awaiting` or the `turn`, and the session counts as busy in
    /// the tracker.
    var items: [Item] = []
    var head = 0
    /// How many items were removed from the front of `items` (tickets stay valid).
    var removed = 0
    /// The storage of the last outcome reply, emptied and reused for the next.
    var spare: [UInt8] = []

    var isEmpty: Bool { head == items.count }

    /// Builds `produce`'s reply in the spare buffer and queues it, then keeps the buffer.
    mutating func queueReply(
      _ outcome: EventOutcome, _ produce: ProduceOutcome, on connection: Connection
    ) {
      var buffer: [UInt8] = []
      swap(&buffer, &spare)
      let line = produce(outcome, consume buffer)
      connection.queueReply(line)  // copies the line: the buffer is the session's alone again
      if line.isSmallEnoughToKeep { spare = line }
    }
  }

  /// What the loop thread reads without the lock (``Flags``); changed under the lock, except
  /// by the loop as a turn begins and ends (ClientSession+Turn).
  let flags = Atomic<UInt8>(0)
  enum Flags {
    /// Turn replies are not written yet (in the loop's ``TurnReplies``).
    static let turnUnwritten: UInt8 = 1
    /// `State.items` holds live items.
    static let itemsQueued: UInt8 = 2
    /// The client will send nothing more: close once every reply owed is sent.
    static let inputEnded: UInt8 = 4
  }

  let connection: Connection
  let tracker: IdleTracker
  let state = Locked(State())
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
    let idle = state.withLock { state -> Bool in
      if isIdle(state) {
        connection.queueReply(line)
        return false
      }
      return enqueue(.bytes(line), &state)
    }
    if idle { tracker.end() }
  }

  /// Queues a reply built when its turn comes.
  func respond(_ produce: @escaping Produce) {
    let idle = state.withLock { state -> Bool in
      if isIdle(state) {
        queueProduced(produce())
        return false
      }
      return enqueue(.ready(produce), &state)
    }
    if idle { tracker.end() }
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
      if let known, isIdle(state) {
        state.queueReply(known, produce, on: connection)
        return nil
      }
      _ = enqueue(.awaiting(produce), &state)  // an awaiting item keeps the session busy
      return state.removed + state.items.count - 1
    }
    guard let ticket else { return }
    // Outside the lock: the callback runs at once when the outcome is already known.
    whenResolved { outcome in self.resolve(ticket, outcome) }
  }

  /// The client will send nothing more: close once every reply owed is sent.
  func endOfInput() {
    state.withLock { state in
      flags.bitwiseOr(Flags.inputEnded, ordering: .sequentiallyConsistent)
      if isIdle(state) { connection.close() }
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

  /// Under the lock: nothing waits (no item, no turn reply unwritten), so a reply can be
  /// produced and sent at once.
  func isIdle(_ state: State) -> Bool {
    state.isEmpty && flags.load(ordering: .sequentiallyConsistent) & Flags.turnUnwritten == 0
  }

  /// Under the lock, for a reply that cannot be sent at once: appends `item`, behind a `.turn`
  /// item when the session was not busy and turn replies are unwritten. Returns whether the
  /// session is idle again (the caller then ends its busy count in the tracker, outside the
  /// lock): when the loop wrote the turn's replies just before, the item is sent now if ready.
  private func enqueue(_ item: Item, _ state: inout State) -> Bool {
    guard state.isEmpty else {
      state.items.append(item)
      return false
    }
    tracker.begin()
    // Marked queued while the turn bit is read, in one step: the loop clears that bit without
    // the lock only while nothing is queued.
    let before = flags.bitwiseOr(Flags.itemsQueued, ordering: .sequentiallyConsistent).oldValue
    if before & Flags.turnUnwritten != 0 {
      state.items.append(.turn)
      state.items.append(item)
      return false
    }
    state.items.append(item)
    queueReady(&state)
    return state.isEmpty
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
      return state.isEmpty
    }
    if idle { tracker.end() }
  }

  /// Under the lock: queues leading items that are ready, in order, and drops them from the
  /// queue; once it is empty, closes the connection if the client sent its last request.
  func queueReady(_ state: inout State) {
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
    let now = flags.bitwiseAnd(~Flags.itemsQueued, ordering: .sequentiallyConsistent).newValue
    if now & (Flags.inputEnded | Flags.turnUnwritten) == Flags.inputEnded { connection.close() }
  }
}
