import Glibc
import SystemCalls

extension EventLoop {
  /// Accepts pending clients (a bounded batch per turn, for fairness).
  func acceptConnections() {
    let flags = Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
    for _ in 0..<Self.acceptsPerTurn {
      let fd = retryingOnInterrupt {
        LinuxSymbols.accept4(listener.fileDescriptor, nil, nil, flags)
      }
      if fd >= 0 {
        admit(fd)
        continue
      }
      switch errno {
      case EAGAIN:
        return
      case ECONNABORTED:
        continue
      case EMFILE, ENFILE, ENOBUFS, ENOMEM:
        // Level-triggered epoll would spin on the pending client; back off briefly.
        configuration.log("accept: \(errnoDescription(errno)); pausing new connections")
        pauseAccepting()
        return
      default:
        configuration.log("accept: \(errnoDescription(errno))")
        return
      }
    }
  }

  /// Checks the peer's uid and registers the connection, or refuses it.
  private func admit(_ fd: Int32) {
    guard let peer = PeerCredentials.of(socket: fd) else {
      close(fd)
      return
    }
    guard peer.uid == configuration.allowedUID else {
      refuse(fd, peer: peer)
      return
    }
    let connection = Connection(id: nextConnectionID, fd: fd, peer: peer, waker: waker)
    nextConnectionID += 1
    guard epoll.add(fd, events: LinuxSymbols.epollIn) else {
      configuration.log("epoll_ctl: \(errnoDescription(errno))")
      close(fd)
      return
    }
    let session = delegate.openSession(for: connection)
    let io = ConnectionIO(
      connection: connection, session: session, maxFrameBytes: configuration.maxFrameBytes,
      registeredMask: LinuxSymbols.epollIn)
    let index = Int(fd)
    if index >= connections.count {
      connections.append(contentsOf: repeatElement(nil, count: index + 1 - connections.count))
    }
    connections[index] = io
    openCount += 1
  }

  /// Tells a foreign uid why, in the protocol's error shape, and hangs up.
  private func refuse(_ fd: Int32, peer: PeerCredentials) {
    let message =
      "uid \(peer.uid) may not use this daemon; it serves only uid \(configuration.allowedUID)"
    let line =
      Array(
        #"{"ok":false,"error":{"code":"permission_denied","message":"\#(message)"}}"#.utf8) + [10]
    // A fresh socket's buffer always has room for one short line, so this cannot block.
    _ = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, LinuxSymbols.sendFlags) }
    close(fd)
  }

  func pauseAccepting() {
    guard listening, acceptRetryAt == nil else { return }
    epoll.remove(listener.fileDescriptor)
    acceptRetryAt = .now + .milliseconds(100)
  }

  /// Re-arms accept after a descriptor shortage (a connection closed, or time passed).
  func resumeAccepting() {
    guard listening, acceptRetryAt != nil else { return }
    acceptRetryAt = nil
    _ = epoll.add(listener.fileDescriptor, events: LinuxSymbols.epollIn)
  }

  /// Stops accepting for good (shutdown).
  func stopListening() {
    guard listening else { return }
    listening = false
    if acceptRetryAt == nil { epoll.remove(listener.fileDescriptor) }
    acceptRetryAt = nil
    listener.closeSocket()
  }

  /// Closes the socket now; whatever is still queued is dropped.
  func closeConnection(_ io: ConnectionIO) {
    guard io.isOpen else { return }
    io.isOpen = false
    io.connection.markClosed()
    closed.append(io)  // alive until the loop's next pass: the event's handling borrows it
    connections[Int(io.fd)] = nil
    close(io.fd)  // also removes it from the epoll set
    openCount -= 1
    delegate.connectionClosed(io.connection)
    resumeAccepting()
  }

  /// Closes after a completed flush. Unread input is discarded first because closing a
  /// Unix socket with unread data makes the peer's read fail with ECONNRESET instead of
  /// returning the reply it is owed followed by EOF.
  func closeGracefully(_ io: ConnectionIO) {
    for _ in 0..<16 {
      if recv(io.fd, readBuffer.baseAddress, readBuffer.count, LinuxSymbols.receiveFlags) <= 0 {
        break
      }
    }
    closeConnection(io)
  }
}
