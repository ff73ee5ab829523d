extension EventLoop {
  /// Graceful shutdown, step 1: stop accepting and stop reading, then let the owner
  /// finish in-flight work (its replies keep flowing meanwhile).
  func beginShutdown() {
    guard case .running = phase else { return }
    stopListening()
    for case let io? in connections {
      io.readingStopped = true
      updateInterest(io)
    }
    phase = .draining(deadline: .now + configuration.drainTimeout)
    let drain = self.drain
    let waker = self.waker
    Task {
      await drain()
      waker.drainDidFinish()
    }
  }

  /// Step 2: every connection closes once its queue is written.
  func beginFlushing() {
    guard case .draining = phase else { return }
    phase = .flushing(deadline: .now + configuration.flushTimeout)
    for case let io? in connections {
      io.connection.close()
    }
  }

  /// Moves shutdown along on deadlines and completion; re-arms accept after a pause.
  func advanceShutdown() {
    switch phase {
    case .running:
      if let retryAt = acceptRetryAt, ContinuousClock.now >= retryAt { resumeAccepting() }
    case .draining(let deadline):
      if ContinuousClock.now >= deadline {
        configuration.log("shutdown: drain did not finish in time; flushing anyway")
        beginFlushing()
      }
    case .flushing(let deadline):
      if openCount == 0 {
        phase = .finished
      } else if ContinuousClock.now >= deadline {
        configuration.log("shutdown: \(openCount) connection(s) did not drain in time")
        for case let io? in connections { closeConnection(io) }
        phase = .finished
      }
    case .finished:
      break
    }
  }
}
