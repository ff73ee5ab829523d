/// The connections one loop turn delivered frames to, at its end
/// (``ConnectionDelegate/loopTurnDidEnd(_:)``): each once, in the order of its first frame,
/// with its session. Valid during that call only, on the loop thread.
///
/// Replies queued here go out with the flush the loop runs right after the turn, before
/// anything queued on the connection later; when nothing else waits in the connection's queue
/// they go straight into the loop's write buffer for it, without the connection's lock.
public struct TurnConnections {
  /// The loop's list and the loop, borrowed, not retained (valid during the delegate's call
  /// only, and nothing changes that list meanwhile): two retains and two releases per turn.
  let ios: UnsafeBufferPointer<ConnectionIO>
  unowned(unsafe) let loop: EventLoop

  /// How many connections the turn delivered frames to.
  public var count: Int { ios.count }

  /// The session of the connection at `index` (``ConnectionDelegate/openSession(for:)``).
  public func session(at index: Int) -> AnyObject? { ios[index].session }

  /// ``session(at:)``, not retained: the loop holds it (its connection's `ConnectionIO` does)
  /// through the delegate's call.
  func unretainedSession(at index: Int) -> Unmanaged<AnyObject>? {
    Unmanaged.passUnretained(ios[index])._withUnsafeGuaranteedRef { io in
      guard let session = io.session else { return nil }
      return Unmanaged.passUnretained(session)
    }
  }

  /// Written bytes a connection's write buffer keeps, replies being appended behind them, before
  /// it is emptied: emptying an array takes the general replaceSubrange (about 80
  /// instructions), so once per this many bytes of replies rather than once per reply.
  static let writtenBytesKept = 2048

  /// Appends reply lines for the connection at `index` with `write`, straight to the loop's
  /// write buffer for it, when nothing waits in the connection's queue and no close was asked
  /// for: they are flushed after the turn, first. Else returns false without calling `write`:
  /// lines go through ``queueReplies(_:at:)``.
  @inline(__always)
  func appendReplies(at index: Int, _ write: (inout [UInt8]) -> Void) -> Bool {
    // Borrowed, not retained: `ios` holds it through this call.
    Unmanaged.passUnretained(ios[index])._withUnsafeGuaranteedRef { io in
      guard io.isOpen, !io.connection.isClosing else { return false }
      let unwritten = io.out.count - io.written
      guard io.connection.queuedByteCount == unwritten else { return false }
      if unwritten == 0, io.out.count >= Self.writtenBytesKept {
        io.written = 0
        if io.out.isSmallEnoughToKeep {
          io.out.removeAll(keepingCapacity: true)
        } else {
          io.out = []
        }
      }
      // The loop thread's alone, and nothing `write` calls touches it.
      let before = io.out.count
      write(&io.out)
      // Counted for the connection's backpressure until written.
      if io.out.count > before { io.connection.countTurnReplies(io.out.count - before) }
      return true
    }
  }

  /// Queues `lines` (one or more reply lines) for the connection at `index`; they come back
  /// empty (with the storage of the write buffer they replaced, when it was empty: no copy).
  public func queueReplies(_ lines: inout [UInt8], at index: Int) {
    let io = ios[index]
    guard io.isOpen else {
      lines.removeAll(keepingCapacity: true)
      return
    }
    let unwritten = io.out.count - io.written
    guard !io.connection.isClosing, io.connection.queuedByteCount == unwritten else {
      // Bytes wait in the connection's queue (or a close was asked for): behind them.
      io.connection.queueTurnReplies(&lines)
      return
    }
    // Counted first: the connection's backpressure sees them, and a reply queued by another
    // thread from now on goes after them.
    io.connection.countTurnReplies(lines.count)
    if unwritten == 0 {
      io.written = 0
      io.out.removeAll(keepingCapacity: true)
      swap(&io.out, &lines)
    } else {
      io.out.append(contentsOf: lines)
      lines.removeAll(keepingCapacity: true)
    }
  }

  /// Keeps the connection at `index` for ``ConnectionDelegate/storeDidProgress(_:)``: some of
  /// its replies wait for changes still on their way to storage. The loop hands it back (in
  /// the connections of that call) each time the delegate's wait for the storage ends
  /// (``storeSignal``), until a call leaves it out.
  public func awaitStore(at index: Int) {
    let io = ios[index]
    guard !io.awaitsStore else { return }
    io.awaitsStore = true
    loop.storeWaiters.append(io)
  }

  /// Brings the loop back to the connections kept with ``awaitStore(at:)``: call it, from any
  /// thread, once changes they wait for may be stored.
  public var storeSignal: @Sendable () -> Void {
    let waker = loop.waker
    return { waker.storeProgressed() }
  }
}
