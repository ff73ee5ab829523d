/// Receives connection events. All methods are called on the event-loop thread, in
/// order, and must not block: start async work and reply later via `Connection.send`.
public protocol ConnectionDelegate: AnyObject, Sendable {
  /// A client passed the credential check. Default: nothing.
  func connectionOpened(_ connection: Connection)

  /// A client passed the credential check: returns what the delegate keeps for it (its
  /// session), which the loop holds while the connection is open and hands back with each of
  /// its frames and at the end of each turn that delivered some: no lookup per frame, no lock.
  /// Default: ``connectionOpened(_:)``, and nil.
  func openSession(for connection: Connection) -> AnyObject?

  /// One complete frame (without "\n"), in the order the client sent it.
  func connection(_ connection: Connection, didReceive frame: [UInt8])

  /// ``connection(_:didReceive:)``, with the connection's session (``openSession(for:)``),
  /// the frame's bytes as they lie in what the loop read: valid during this call only (copy
  /// what is kept), and read there, not copied per frame. Default:
  /// ``connection(_:didReceive:)`` with a copy.
  func connection(
    _ connection: Connection, session: AnyObject?, didReceive frame: UnsafeRawBufferPointer)

  /// The client sent a frame longer than the limit. Send the error reply from within
  /// this call: the connection is closed right after it is flushed.
  func connection(_ connection: Connection, didReceiveOversizedFrame byteCount: Int)

  /// The client shut down its sending side (no more frames will come); it may still be
  /// reading. Default: `connection.close()`, which flushes queued replies first; override
  /// to close only after in-flight async replies are sent.
  func connectionDidReachEndOfInput(_ connection: Connection)

  /// The socket is closed; later sends on the connection are dropped. Default: nothing.
  func connectionClosed(_ connection: Connection)

  /// The loop is about to deliver what one turn brought: the frames of every connection that
  /// became readable (or was resumed). Called before the turn's first frame: a pass of the
  /// loop that delivers none begins no turn. Default: nothing.
  func loopTurnWillBegin()

  /// Every frame of the turn was delivered; next the loop writes the replies queued so far and
  /// waits. Finish work gathered over the turn here (the daemon writes the turn's changes to
  /// its journal in one batch). Default: nothing.
  func loopTurnDidEnd()

  /// ``loopTurnDidEnd()``, with the connections whose frames the turn delivered and their
  /// sessions (``openSession(for:)``): the loop flushes those connections next, so replies
  /// queued for them with ``TurnConnections/queueReplies(_:at:)`` need no wake-up, and take no
  /// lock when nothing else waits. Default: ``loopTurnDidEnd()``.
  func loopTurnDidEnd(_ connections: TurnConnections)

  /// A ``TurnConnections/storeSignal`` came: `connections` are those kept with
  /// ``TurnConnections/awaitStore(at:)``, handed back (and no longer kept: keep again those
  /// still waiting). The loop flushes them next, as after a turn. Default: nothing.
  func storeDidProgress(_ connections: TurnConnections)
}

extension ConnectionDelegate {
  public func connectionOpened(_ connection: Connection) {}

  public func openSession(for connection: Connection) -> AnyObject? {
    connectionOpened(connection)
    return nil
  }

  public func connection(
    _ connection: Connection, session: AnyObject?, didReceive frame: UnsafeRawBufferPointer
  ) {
    self.connection(connection, didReceive: Array(frame))
  }

  public func connectionDidReachEndOfInput(_ connection: Connection) {
    connection.close()
  }

  public func connectionClosed(_ connection: Connection) {}

  public func loopTurnWillBegin() {}

  public func loopTurnDidEnd() {}

  public func loopTurnDidEnd(_ connections: TurnConnections) { loopTurnDidEnd() }

  public func storeDidProgress(_ connections: TurnConnections) {}
}
