import Wire

/// The event loop's private view of one connection: socket, framer, write buffer and
/// interest flags. Touched only on the loop thread, hence a plain class.
final class ConnectionIO {
  let connection: Connection
  /// The delegate's object for the connection (``ConnectionDelegate/openSession(for:)``).
  var session: AnyObject?
  var fd: Int32 { connection.fd }
  var framer: LineFramer

  /// Bytes taken from the connection's queue; `out[written...]` is still to be sent.
  var out: [UInt8] = []
  var written = 0

  var isOpen = true
  /// Set for good by end of input, an oversized frame, a close request or shutdown.
  var readingStopped = false
  /// Set while too many reply bytes are queued (backpressure); cleared as they drain.
  var readingPaused = false
  /// Set while the delegate holds this connection's frames (`Connection.holdFrames()`).
  var readingHeld = false
  /// The peer hung up while frames were held: the connection is out of the epoll set and
  /// closes once the frames that were held are delivered.
  var peerHungUp = false
  /// The last write hit EAGAIN (or its turn ended); EPOLLOUT resumes it.
  var waitingForWritable = false
  /// A frame of this connection was delivered since the loop last flushed it after a turn
  /// (it is in the loop's `delivered` list).
  var deliveredInTurn = false
  /// The epoll mask currently registered.
  var registeredMask: UInt32

  init(connection: Connection, maxFrameBytes: Int, registeredMask: UInt32) {
    self.connection = connection
    self.framer = LineFramer(maxFrameBytes: maxFrameBytes)
    self.registeredMask = registeredMask
  }

  var wantsRead: Bool { !readingStopped && !readingPaused && !readingHeld }

  var desiredMask: UInt32 {
    (wantsRead ? LinuxSymbols.epollIn : 0) | (waitingForWritable ? LinuxSymbols.epollOut : 0)
  }

  var hasUnwrittenBytes: Bool { written < out.count }
}
