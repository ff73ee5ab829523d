import Glibc

/// The I/O engine: one thread, one level-triggered epoll set holding the listener,
/// the waker's eventfd and every connection.
///
/// Each turn handles ready sockets (one 64 KiB read per readable connection, so a
/// busy client cannot starve others), tells the delegate the turn ended (so the changes of
/// every request read in it can be stored together, and their replies written after), then
/// flushes every connection that has new bytes, batching all replies produced during the turn
/// into one send per connection: the connections it read, and those other threads queued
/// bytes for (through the waker's inbox).
/// Nothing here blocks: sockets are non-blocking and a full socket waits for EPOLLOUT.
final class EventLoop {
  static let readChunkBytes = 64 * 1024
  /// Aim for this much per take from a connection's queue, so pushes queued behind
  /// stay coalescible while the socket is full.
  static let writeBudgetBytes = 256 * 1024
  /// Write buffers that grew beyond this are dropped after use instead of kept.
  static let retainedBufferBytes = 1 << 20
  static let sendsPerTurn = 16
  static let acceptsPerTurn = 64

  let configuration: ServerConfiguration
  let delegate: any ConnectionDelegate
  let drain: @Sendable () async -> Void
  let waker: LoopWaker
  let epoll: Epoll
  let listener: ListeningSocket
  let onFinished: @Sendable () -> Void

  var listening = true
  var acceptRetryAt: ContinuousClock.Instant? { didSet { noteDeadlines() } }
  // The loop's working state below is touched by the loop thread alone, and no access to it
  // spans a call that could touch it again (buffers are swapped out first): the run-time
  // exclusivity checks (swift_beginAccess, one per access) would guard nothing.

  /// Open connections indexed by descriptor (descriptors are small, dense integers).
  @exclusivity(unchecked) var connections: [ConnectionIO?] = []
  var openCount = 0
  var nextConnectionID: UInt64 = 1
  var phase = Phase.running { didSet { noteDeadlines() } }
  /// Whether a deadline is pending (an accept retry, a shutdown step): else, the daemon's usual
  /// state, a turn skips reading `phase` and the clock. (A `ContinuousClock.Instant` is copied
  /// and compared through its type's value witnesses, which cost more than the checks.)
  private var hasDeadlines = false
  let readBuffer: UnsafeMutableRawBufferPointer
  /// Each frame delivered, in turn (``LineFramer/next(into:)``).
  @exclusivity(unchecked) var frame: [UInt8] = []
  /// Reused for every inbox swap to avoid allocating per turn.
  @exclusivity(unchecked) var readyScratch: [Connection] = []
  /// The connections whose frames were delivered since the last flush after a turn: their
  /// replies, written at the turn's end, are flushed without an inbox entry.
  @exclusivity(unchecked) var delivered: [ConnectionIO] = []
  @exclusivity(unchecked) var deliveredScratch: [ConnectionIO] = []
  /// Connections closed during this pass of the loop, kept until the next one: an event's
  /// handling borrows its connection from `connections`, which a close clears.
  @exclusivity(unchecked) var closed: [ConnectionIO] = []
  /// Connections whose replies wait for the storage (``TurnConnections/awaitStore(at:)``),
  /// handed back to the delegate when a store signal comes, and the list swapped in then.
  @exclusivity(unchecked) var storeWaiters: [ConnectionIO] = []
  @exclusivity(unchecked) var storeScratch: [ConnectionIO] = []
  /// Whether the delegate was told a turn began (``beginTurnIfNeeded()``) and not yet that it
  /// ended.
  @exclusivity(unchecked) var turnOpen = false

  enum Phase {
    case running
    /// Not accepting or reading; waiting for the owner's drain hook.
    case draining(deadline: ContinuousClock.Instant)
    /// Every connection is closing after its queue is written.
    case flushing(deadline: ContinuousClock.Instant)
    case finished
  }

  init(
    listener: ListeningSocket, waker: LoopWaker, configuration: ServerConfiguration,
    delegate: any ConnectionDelegate, drain: @escaping @Sendable () async -> Void,
    onFinished: @escaping @Sendable () -> Void
  ) throws {
    self.listener = listener
    self.waker = waker
    self.configuration = configuration
    self.delegate = delegate
    self.drain = drain
    self.onFinished = onFinished
    epoll = try Epoll()
    readBuffer = .allocate(byteCount: Self.readChunkBytes, alignment: 16)
    guard epoll.add(waker.eventFD, events: LinuxSymbols.epollIn),
      epoll.add(listener.fileDescriptor, events: LinuxSymbols.epollIn)
    else {
      // Fully initialized by now, so deinit runs on this throw and frees the buffer.
      throw ServerError.systemCall("epoll_ctl", path: nil, errno: errno)
    }
  }

  deinit {
    readBuffer.deallocate()
  }

  /// Runs until shutdown completes, then releases the listener and reports.
  func run() {
    while true {
      if !closed.isEmpty { closed.removeAll() }
      processInbox()
      if hasDeadlines {
        advanceShutdown()
        if case .finished = phase { break }
      }
      // Frames delivered while flushing (resumed, or no longer held back): first their replies.
      if !delivered.isEmpty { continue }
      waker.loopWillSleep()
      if waker.hasPendingWork() {
        waker.loopDidWake()
        continue
      }
      let count = epoll.wait(timeoutMilliseconds: hasDeadlines ? timeoutMilliseconds() : -1)
      waker.loopDidWake()
      for index in 0..<count {
        let (descriptor, mask) = epoll.event(at: index)
        dispatch(descriptor, mask)
      }
      // Replies this produces (a journal batch written here) are flushed by the next
      // `processInbox`, which runs before the loop can sleep.
      endTurn()
    }
    stopListening()
    listener.release()
    onFinished()
  }

  private func dispatch(_ descriptor: Int32, _ mask: UInt32) {
    if descriptor == waker.eventFD {
      waker.consumeSignal()
    } else if listening, descriptor == listener.fileDescriptor {
      acceptConnections()
    } else if descriptor < connections.count,
      let io = connections[Int(descriptor)].map(Unmanaged.passUnretained)
    {
      // Borrowed, not retained (a retain and a release per event): a connection that `handle`
      // closes stays in `closed` until the loop's next pass.
      io._withUnsafeGuaranteedRef { handle($0, mask) }
    }
  }

  /// Flushes the connections the last turn read and those other threads queued bytes for, and
  /// applies control requests.
  private func processInbox() {
    let flags = waker.takeInbox(into: &readyScratch)
    swap(&delivered, &deliveredScratch)
    if !readyScratch.isEmpty || !deliveredScratch.isEmpty {
      // Resumed connections deliver frames here: one turn of their own.
      for index in deliveredScratch.indices {
        // Borrowed, not retained: `deliveredScratch` holds it, and nothing here changes that
        // list (frames a flush delivers go to `delivered`).
        Unmanaged.passUnretained(deliveredScratch[index])._withUnsafeGuaranteedRef { io in
          io.deliveredInTurn = false
          if io.isOpen, !io.peerHungUp, !io.waitingForWritable,
            io.connection.queuedByteCount > 0
          {
            flush(io)
          }
        }
      }
      // Array's removeAll(keepingCapacity:) takes the general replaceSubrange (about 100
      // instructions even for one element, about 50 for none): not for the usual one or none.
      if deliveredScratch.count == 1 {
        deliveredScratch.removeLast()
      } else if !deliveredScratch.isEmpty {
        deliveredScratch.removeAll(keepingCapacity: true)
      }
      for connection in readyScratch {
        guard let io = lookup(connection) else { continue }
        if io.readingHeld, !connection.isHoldingFrames { resumeHeldFrames(io) }
        if io.isOpen, !io.peerHungUp, !io.waitingForWritable { flush(io) }
      }
      endTurn()
      if !readyScratch.isEmpty { readyScratch.removeAll(keepingCapacity: true) }
    }
    if flags.storeProgressed { storeDidProgress() }
    if flags.shutdown { beginShutdown() }
    if flags.drained { beginFlushing() }
  }

  /// Tells the delegate a turn begins, before its first frame (``deliverFrames(_:from:honoringBackpressure:)``):
  /// a pass that delivers no frame (only writes, accepts, or the flush after a turn) begins
  /// and ends no turn, so the delegate's per-turn work (the journal's batch) costs it nothing.
  func beginTurnIfNeeded() {
    guard !turnOpen else { return }
    turnOpen = true
    delegate.loopTurnWillBegin()
  }

  /// Tells the delegate the turn ended, with the connections it delivered frames to: those
  /// `delivered` got since the turn began (it is empty when a turn begins).
  private func endTurn() {
    guard turnOpen else { return }
    turnOpen = false
    // Borrowed by the delegate, which delivers no frames meanwhile; the list is moved out for
    // the call, not retained (the property could change during it, as far as the compiler
    // knows), and back.
    var ios: [ConnectionIO] = []
    swap(&ios, &delivered)
    ios.withUnsafeBufferPointer { ios in
      delegate.loopTurnDidEnd(TurnConnections(ios: ios, loop: self))
    }
    swap(&ios, &delivered)
  }

  /// Hands the connections awaiting the storage back to the delegate, which writes the replies
  /// whose changes are stored now (and keeps again those still waiting), then flushes them.
  private func storeDidProgress() {
    guard !storeWaiters.isEmpty else { return }
    swap(&storeWaiters, &storeScratch)
    for io in storeScratch { io.awaitsStore = false }
    // Borrowed: connections the delegate keeps again go to `storeWaiters`, not this list.
    storeScratch.withUnsafeBufferPointer { ios in
      delegate.storeDidProgress(TurnConnections(ios: ios, loop: self))
    }
    for io in storeScratch
    where io.isOpen && !io.peerHungUp && !io.waitingForWritable
      && io.connection.queuedByteCount > 0
    {
      flush(io)
    }
    storeScratch.removeAll(keepingCapacity: true)
    endTurn()  // a flush that released backpressure may have delivered frames
  }

  /// The loop's state for `connection` if it is still open (descriptors get reused).
  func lookup(_ connection: Connection) -> ConnectionIO? {
    let index = Int(connection.fd)
    guard index < connections.count, let io = connections[index], io.connection === connection
    else { return nil }
    return io
  }

  private func noteDeadlines() {
    if case .running = phase {
      hasDeadlines = acceptRetryAt != nil
    } else {
      hasDeadlines = true
    }
  }

  private func timeoutMilliseconds() -> Int32 {
    let deadline: ContinuousClock.Instant?
    switch phase {
    case .running: deadline = acceptRetryAt
    case .draining(let end), .flushing(let end): deadline = end
    case .finished: deadline = nil
    }
    guard let deadline else { return -1 }
    let remaining = ContinuousClock.now.duration(to: deadline)
    let milliseconds =
      remaining.components.seconds * 1000 + remaining.components.attoseconds
      / 1_000_000_000_000_000
    return Int32(clamping: max(1, milliseconds + 1))  // +1: never wake just before it
  }
}
