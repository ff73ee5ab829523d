import Wire

/// The event loop's private view of one connection: socket, framer, write buffer and
/// interest flags. Touched only on the loop thread, hence a plain class; and without run-time
/// exclusivity checks (a swift_beginAccess per access, several per request): no access to its
/// state spans a call that could touch that state again.
final class ConnectionIO {
  let connection: Connection
  /// The delegate's object for the connection (``ConnectionDelegate/openSession(for:)``). A
  /// constant: handed to the delegate with every frame without a retain (the loop's reference
  /// to `self` keeps it alive), where a variable's might change during the call.
  let session: AnyObject?
  var fd: Int32 { connection.fd }
  @exclusivity(unchecked) var framer: LineFramer

  /// Bytes taken from the connection's queue; `out[written...]` is still to be sent.
  @exclusivity(unchecked) var out: [UInt8] = []
  @exclusivity(unchecked) var written = 0

  @exclusivity(unchecked) var isOpen = true
  /// Set for good by end of input, an oversized frame, a close request or shutdown.
  @exclusivity(unchecked) var readingStopped = false
  /// Set while too many reply bytes are queued (backpressure); cleared as they drain.
  @exclusivity(unchecked) var readingPaused = false
  /// Set while the delegate holds this connection's frames (`Connection.holdFrames()`).
  @exclusivity(unchecked) var readingHeld = false
  /// The peer hung up while frames were held: the connection is out of the epoll set and
  /// closes once the frames that were held are delivered.
  @exclusivity(unchecked) var peerHungUp = false
  /// The last write hit EAGAIN (or its turn ended); EPOLLOUT resumes it.
  @exclusivity(unchecked) var waitingForWritable = false
  /// A frame of this connection was delivered since the loop last flushed it after a turn
  /// (it is in the loop's `delivered` list).
  @exclusivity(unchecked) var deliveredInTurn = false
  /// The delegate awaits the storage for replies of this connection
  /// (``TurnConnections/awaitStore(at:)``): it is in the loop's `storeWaiters`.
  @exclusivity(unchecked) var awaitsStore = false
  /// The epoll mask currently registered.
  @exclusivity(unchecked) var registeredMask: UInt32

  init(connection: Connection, session: AnyObject?, maxFrameBytes: Int, registeredMask: UInt32) {
    self.connection = connection
    self.session = session
    self.framer = LineFramer(maxFrameBytes: maxFrameBytes)
    self.registeredMask = registeredMask
  }

  var wantsRead: Bool { !readingStopped && !readingPaused && !readingHeld }

  var desiredMask: UInt32 {
    (wantsRead ? LinuxSymbols.epollIn : 0) | (waitingForWritable ? LinuxSymbols.epollOut : 0)
  }

  var hasUnwrittenBytes: Bool { written < out.count }
}
