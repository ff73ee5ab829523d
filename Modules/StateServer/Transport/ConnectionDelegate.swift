/// Receives connection events. All methods are called on the event-loop thread, in
/// order, and must not block: start async work and reply later via `Connection.send`.
public protocol ConnectionDelegate: AnyObject, Sendable {
  /// A client passed the credential check. Default: nothing.
  func connectionOpened(_ connection: Connection)

  /// One complete frame (without "\n"), in the order the client sent it.
  func connection(_ connection: Connection, didReceive frame: [UInt8])

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
  /// became readable (or was resumed). Default: nothing.
  func loopTurnWillBegin()

  /// Every frame of the turn was delivered; next the loop writes the replies queued so far and
  /// waits. Finish work gathered over the turn here (the daemon writes the turn's changes to
  /// its journal in one batch). Default: nothing.
  func loopTurnDidEnd()
}

extension ConnectionDelegate {
  public func connectionOpened(_ connection: Connection) {}

  public func connectionDidReachEndOfInput(_ connection: Connection) {
    connection.close()
  }

  public func connectionClosed(_ connection: Connection) {}

  public func loopTurnWillBegin() {}

  public func loopTurnDidEnd() {}
}
