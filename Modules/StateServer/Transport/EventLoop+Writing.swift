import Glibc
import SystemCalls

extension EventLoop {
  /// Writes the connection's queued bytes until the queue is empty, the socket is
  /// full (then EPOLLOUT resumes it), or its turn is used up. Never blocks.
  func flush(_ io: ConnectionIO) {
    let connection = io.connection
    var sends = 0
    var queued = Int.max  // unknown until the first write
    var closeRequested = false
    while io.isOpen {
      if !io.hasUnwrittenBytes {
        if queued == 0 {
          // Everything taken was written and nothing new arrived: skip another take.
          // (Bytes queued after the last take re-schedule this connection.)
          io.waitingForWritable = false
          if closeRequested {
            closeGracefully(io)
            return
          }
          break
        }
        recycleWriteBuffer(io)
        let (moved, closing) = connection.takeOutbound(
          into: &io.out, budget: Self.writeBudgetBytes)
        closeRequested = closing
        if moved == 0 {
          io.waitingForWritable = false
          if closeRequested {
            closeGracefully(io)
            return
          }
          queued = 0
          break
        }
      }
      if sends == Self.sendsPerTurn {
        io.waitingForWritable = true  // let others run; EPOLLOUT fires right away
        break
      }
      // Sent from a local: a property's storage is retained and released around the call.
      var out: [UInt8] = []
      swap(&out, &io.out)
      let count = out.withUnsafeBytes { bytes in
        retryingOnInterrupt {
          send(
            io.fd, bytes.baseAddress! + io.written, bytes.count - io.written,
            LinuxSymbols.sendFlags)
        }
      }
      swap(&out, &io.out)
      sends += 1
      if count > 0 {
        io.written += count
        queued = connection.didWrite(count)
      } else if errno == EAGAIN {
        io.waitingForWritable = true
        break
      } else {
        closeConnection(io)  // EPIPE, ECONNRESET: the reader is gone
        return
      }
    }
    guard io.isOpen else { return }
    if io.readingPaused, queued <= configuration.maxQueuedBytes / 2 {
      // Backpressure released: run the requests already buffered, then read again.
      io.readingPaused = false
      deliverFrames(io)
    } else {
      updateInterest(io)
    }
  }

  private func recycleWriteBuffer(_ io: ConnectionIO) {
    if io.out.capacity > Self.retainedBufferBytes {
      io.out = []
    } else {
      io.out.removeAll(keepingCapacity: true)
    }
    io.written = 0
  }
}
