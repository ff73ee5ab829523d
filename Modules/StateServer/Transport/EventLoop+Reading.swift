import Glibc
import SystemCalls

extension EventLoop {
  /// Reacts to one epoll event for a connection.
  func handle(_ io: ConnectionIO, _ mask: UInt32) {
    if mask & (LinuxSymbols.epollErr | LinuxSymbols.epollHup) != 0 {
      // The peer is gone for good (HUP on a Unix stream means both directions are shut).
      // Its last requests may still matter (e.g. fire-and-forget commands), so deliver
      // them, then drop the connection: nobody is left to read replies.
      readToEnd(io)
      if io.readingHeld {
        // The rest waits for the delegate; HUP would be reported on every turn meanwhile.
        io.peerHungUp = true
        epoll.remove(io.fd)
      } else {
        closeConnection(io)
      }
      return
    }
    if mask & LinuxSymbols.epollIn != 0, io.wantsRead {
      readOnce(io)
    }
    if mask & LinuxSymbols.epollOut != 0, io.isOpen {
      io.waitingForWritable = false
      flush(io)
    }
  }

  /// One read per readiness event keeps the loop fair between busy connections;
  /// level-triggered epoll reports the socket again if more is pending.
  private func readOnce(_ io: ConnectionIO) {
    let count = retryingOnInterrupt {
      recv(io.fd, readBuffer.baseAddress, readBuffer.count, LinuxSymbols.receiveFlags)
    }
    if count > 0 {
      deliverFrames(io, from: UnsafeRawBufferPointer(rebasing: readBuffer[0..<count]))
    } else if count == 0 {
      endOfInput(io)
    } else if errno != EAGAIN {
      closeConnection(io)
    }
  }

  private func readToEnd(_ io: ConnectionIO) {
    guard !io.readingStopped else { return }
    while io.isOpen, !io.readingStopped {
      let count = retryingOnInterrupt {
        recv(io.fd, readBuffer.baseAddress, readBuffer.count, LinuxSymbols.receiveFlags)
      }
      guard count > 0 else { return }
      io.readingPaused = false  // replies cannot be written anyway; just run the requests
      deliverFrames(
        io, from: UnsafeRawBufferPointer(rebasing: readBuffer[0..<count]),
        honoringBackpressure: false)
    }
  }

  /// Hands complete frames to the delegate, in order, until the framer runs dry,
  /// the connection is closing, or too many reply bytes are queued (then reading
  /// pauses and the frames stay buffered until the queue drains). After a read, `chunk` is
  /// what it read (in the loop's read buffer): its frames are delivered where they lie
  /// (``LineFramer/next(from:at:into:)``), and what is not delivered stays in the framer.
  func deliverFrames(
    _ io: ConnectionIO, from chunk: UnsafeRawBufferPointer = .init(start: nil, count: 0),
    honoringBackpressure: Bool = true
  ) {
    var used = 0
    defer {
      // Reading paused or stopped: the framer keeps the rest, as if it had taken it all.
      if used < chunk.count { io.framer.append(UnsafeRawBufferPointer(rebasing: chunk[used...])) }
    }
    let connection = io.connection
    let limit = honoringBackpressure ? configuration.maxQueuedBytes : Int.max
    // The read's bytes are all used and the framer holds nothing (a frame lies in the read
    // only then): asking it again would find nothing (a call per read). The gate is still
    // asked, as before, so a pause, a hold or a stop is noted as it was.
    var drained = false
    while io.isOpen, !io.readingStopped {
      switch connection.readGate(limit: limit) {
      case .proceed: break
      case .pause:
        io.readingPaused = true
        updateInterest(io)
        return
      case .hold:
        io.readingHeld = true
        updateInterest(io)
        return
      case .stop:
        io.readingStopped = true
        updateInterest(io)
        return
      }
      if drained { break }
      // Read where it lies in the read buffer, else (a frame the framer buffered) from the
      // loop's one frame buffer: no copy or allocation per frame. That buffer is the loop's
      // alone (unchecked exclusivity: the framer does not reach it), and moved into a local
      // while the delegate reads it, which could deliver another connection's frames.
      guard let found = io.framer.next(from: chunk, at: &used, into: &self.frame) else { break }
      switch found {
      case .lying(let bytes):
        deliver(bytes, io, connection)
        drained = used == chunk.count
      case .copied:
        var frame: [UInt8] = []
        swap(&frame, &self.frame)
        frame.withUnsafeBytes { deliver($0, io, connection) }
        if frame.capacity <= Self.readChunkBytes { swap(&frame, &self.frame) }
      case .oversized(let byteCount):
        delegate.connection(connection, didReceiveOversizedFrame: byteCount)
        io.readingStopped = true
        connection.close()
      }
    }
    updateInterest(io)
  }

  /// Hands one frame to the delegate, in the loop's turn.
  @inline(__always)
  private func deliver(
    _ frame: UnsafeRawBufferPointer, _ io: ConnectionIO, _ connection: Connection
  ) {
    beginTurnIfNeeded()
    if !io.deliveredInTurn {
      io.deliveredInTurn = true
      delivered.append(io)
    }
    delegate.connection(connection, session: io.session, didReceive: frame)
  }

  /// The delegate resumed a connection whose frames it held: deliver those that waited.
  func resumeHeldFrames(_ io: ConnectionIO) {
    io.readingHeld = false
    guard io.peerHungUp else {
      deliverFrames(io)
      return
    }
    deliverFrames(io, honoringBackpressure: false)
    if !io.readingHeld { closeConnection(io) }
  }

  /// The client shut down its sending side; an unterminated last line is dropped.
  private func endOfInput(_ io: ConnectionIO) {
    io.readingStopped = true
    updateInterest(io)
    delegate.connectionDidReachEndOfInput(io.connection)
  }

  /// Re-registers the connection when the wanted events changed.
  func updateInterest(_ io: ConnectionIO) {
    guard io.isOpen, !io.peerHungUp else { return }
    let mask = io.desiredMask
    guard mask != io.registeredMask else { return }
    if epoll.modify(io.fd, events: mask) {
      io.registeredMask = mask
    } else {
      closeConnection(io)
    }
  }
}
