import BlocCore
import Synchronization

/// One client connection. Thread-safe: `queueReply`, `push` and `close` may be called from
/// any thread or task; the event loop does the actual I/O.
///
/// Every byte for the connection goes through one ordered queue, so replies and
/// pushes never interleave mid-line.
public final class Connection: Sendable {
  /// Unique for the lifetime of the server, never reused.
  public let id: UInt64
  /// Who connected, from SO_PEERCRED.
  public let peer: PeerCredentials
  /// The peer's effective uid at connect time.
  public var peerUID: UInt32 { peer.uid }

  /// The socket; only the loop thread uses it, and only while the connection is open.
  let fd: Int32
  private let waker: LoopWaker
  private let state = Locked(State())
  /// The bytes queued or taken by the loop and not yet written: added to under the lock as
  /// bytes are queued, subtracted from by the loop as it writes them (no lock per write), read
  /// without the lock for the loop's per-frame check and `queuedByteCount` (backpressure).
  private let queuedTotal = Atomic(0)
  /// Mirror of `State.closeRequested`, for the loop's per-frame check.
  private let closing = Atomic(false)
  /// Set by `holdFrames` while the delegate finishes a frame off the loop thread.
  private let holding = Atomic(false)

  struct State {
    var queue = OutboundQueue()
    /// True from `schedule` until the loop takes the queue; avoids duplicate inbox entries.
    var scheduled = false
    var closeRequested = false
    var closed = false
  }

  init(id: UInt64, fd: Int32, peer: PeerCredentials, waker: LoopWaker) {
    self.id = id
    self.fd = fd
    self.peer = peer
    self.waker = waker
  }

  /// Queues a reply line (bytes including the final "\n"). Replies are never dropped or
  /// coalesced; they are discarded only once the connection is closed.
  public func queueReply(_ line: [UInt8]) {
    enqueue { $0.appendReply(line) }
  }

  /// ``queueReply(_:)`` at a turn's end (``TurnConnections``), for a connection whose frames
  /// that turn delivered: the loop flushes those after the turn by itself, so no wake-up is
  /// posted to its inbox. `lines` (one or more reply lines) is handed over without a copy when
  /// the queue can take its storage; it comes back empty.
  func queueTurnReplies(_ lines: inout [UInt8]) {
    state.withLock { state in
      guard !state.closed, !state.closeRequested else { return }
      queuedTotal.add(lines.count, ordering: .relaxed)
      state.queue.appendReplies(&lines)
    }
    lines.removeAll(keepingCapacity: true)
  }

  /// Counts `byteCount` reply bytes the loop put straight into its write buffer for this
  /// connection (``TurnConnections``): they count for backpressure like queued ones until
  /// written. Loop thread only; no lock.
  func countTurnReplies(_ byteCount: Int) {
    queuedTotal.add(byteCount, ordering: .sequentiallyConsistent)
  }

  /// Queues a push in a latest-wins slot named `key` (e.g. a watched feature): if an
  /// earlier push under `key` is still unwritten it is replaced, keeping its place in
  /// the order. A slow reader thus sees the newest state and never makes us buffer
  /// without bound.
  public func push(_ line: [UInt8], key: String) {
    enqueue { $0.appendPush(line, key: key) }
  }

  /// Closes the connection once everything queued so far is written. Later replies and pushes are
  /// dropped. No further frames are delivered.
  public func close() {
    let needsSchedule = state.withLock { state -> Bool in
      guard !state.closed, !state.closeRequested else { return false }
      state.closeRequested = true
      closing.store(true, ordering: .relaxed)
      return markScheduled(&state)
    }
    if needsSchedule { waker.schedule(self) }
  }

  /// Delivers no further frame of this connection until `resumeFrames()`: for a delegate that
  /// finishes a frame off the loop thread and must keep the connection's order. Call it from
  /// `connection(_:didReceive:)`. Meanwhile received frames stay buffered and the socket is
  /// not read, so memory stays bounded; other connections are served as usual.
  public func holdFrames() {
    holding.store(true, ordering: .sequentiallyConsistent)
  }

  /// Ends `holdFrames()`: the loop delivers the frames that waited, then reads again. Safe
  /// from any thread.
  public func resumeFrames() {
    holding.store(false, ordering: .sequentiallyConsistent)
    // Always: the loop may be taking this connection's queue right now, which clears the
    // scheduled mark without seeing this resume. A second entry in the inbox is harmless.
    waker.schedule(self)
  }

  /// Whether frames are held (see `holdFrames()`).
  var isHoldingFrames: Bool { holding.load(ordering: .sequentiallyConsistent) }

  /// Bytes queued for this connection and not yet accepted by the kernel.
  public var queuedByteCount: Int {
    queuedTotal.load(ordering: .relaxed)
  }

  /// True once the socket is closed (by either side or by the server).
  public var isClosed: Bool {
    state.withLock { $0.closed }
  }

  private func enqueue(_ body: (inout OutboundQueue) -> Void) {
    let needsSchedule = state.withLock { state -> Bool in
      guard !state.closed, !state.closeRequested else { return false }
      let before = state.queue.byteCount
      body(&state.queue)
      // A push that replaces an unwritten one may shrink the queue.
      queuedTotal.wrappingAdd(state.queue.byteCount - before, ordering: .relaxed)
      return markScheduled(&state)
    }
    if needsSchedule { waker.schedule(self) }
  }

  private func markScheduled(_ state: inout State) -> Bool {
    guard !state.scheduled else { return false }
    state.scheduled = true
    return true
  }

  // MARK: Loop side

  /// Moves queued bytes into `out` (see `OutboundQueue.take`); after this, new replies and pushes
  /// schedule the connection again. Returns whether a close was requested. (The bytes moved
  /// stay counted in `queuedByteCount` until ``didWrite(_:)``.)
  func takeOutbound(into out: inout [UInt8], budget: Int) -> (moved: Int, closeRequested: Bool) {
    state.withLock { state in
      state.scheduled = false
      let moved = state.queue.take(into: &out, budget: budget)
      return (moved, state.closeRequested)
    }
  }

  /// Records that the kernel accepted `count` bytes (taken with ``takeOutbound(into:budget:)``);
  /// returns the bytes still queued or taken and unwritten. Loop thread only; no lock.
  func didWrite(_ count: Int) -> Int {
    queuedTotal.wrappingSubtract(count, ordering: .relaxed).newValue
  }

  /// Whether a close was asked for (the loop's view, without the lock).
  var isClosing: Bool { closing.load(ordering: .relaxed) }

  /// Whether the loop may deliver another frame: not when closing, and not while more
  /// than `limit` bytes are queued (backpressure).
  func readGate(limit: Int) -> ReadGate {
    // Lock-free: this runs before every frame. A close requested on the loop thread
    // (by the delegate) is always seen; one from elsewhere may let one more frame by.
    if closing.load(ordering: .relaxed) { return .stop }
    if isHoldingFrames { return .hold }
    return queuedTotal.load(ordering: .relaxed) > limit ? .pause : .proceed
  }

  /// Marks the connection closed and drops whatever is still queued.
  func markClosed() {
    state.withLock { state in
      state.closed = true
      state.queue.removeAll()
      queuedTotal.store(0, ordering: .relaxed)
      closing.store(true, ordering: .relaxed)
    }
  }
}

/// The loop's answer to "may I read/deliver more for this connection?".
enum ReadGate {
  case proceed
  case pause
  /// The delegate holds frames (`holdFrames()`) until it resumes them.
  case hold
  case stop
}
