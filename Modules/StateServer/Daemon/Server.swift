import BlocCore
import Dispatch
import Foundation
import Glibc

/// The daemon's transport: binds the socket, runs the event loop on its own thread,
/// and shuts down gracefully.
///
/// Shutdown order: stop accepting and reading → await the owner's `drain` hook (bounded
/// by `drainTimeout`) while replies keep flowing → close every connection once its queue
/// is written (bounded by `flushTimeout`) → unlink the socket (unless socket-activated)
/// and the lock file → `waitUntilStopped`/`run` return.
public final class Server: Sendable {
  public let configuration: ServerConfiguration
  private let delegate: any ConnectionDelegate
  private let drain: @Sendable () async -> Void
  private let state = Locked(State())

  private struct State {
    enum Phase {
      case idle
      case running(LoopWaker)
      case stopped
    }
    var phase = Phase.idle
    var listenerPath: String?
    var shutdownRequested = false
    var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    var nextWaiterID: UInt64 = 0
  }

  /// - Parameters:
  ///   - delegate: receives frames on the loop thread; see `ConnectionDelegate`.
  ///   - drain: awaited during shutdown, after reading stopped and before the final
  ///     flush: finish in-flight requests here so their replies are delivered.
  public init(
    configuration: ServerConfiguration, delegate: any ConnectionDelegate,
    drain: @escaping @Sendable () async -> Void = {}
  ) {
    self.configuration = configuration
    self.delegate = delegate
    self.drain = drain
  }

  /// The socket path actually served (systemd's when activated); nil before `start`.
  public var socketPath: String? {
    state.withLock { $0.listenerPath }
  }

  /// Binds (or adopts) the socket and starts the loop thread; returns once it runs.
  /// Ignores SIGPIPE process-wide. Throws `ServerError` (e.g. `.alreadyRunning`).
  public func start() throws {
    try checkStartable()
    try start(
      on: ListeningSocket.open(
        path: configuration.socketPath, environment: configuration.environment,
        backlog: configuration.backlog))
  }

  /// Starts the loop thread on a listener opened earlier with ``ListeningSocket/open(path:environment:backlog:)``;
  /// returns once it runs. A daemon opens its listener first, so a second instance is refused
  /// before it restores any state, and clients connecting meanwhile wait in the backlog.
  /// The server owns `listener` from here on (it is closed if starting fails).
  public func start(on listener: ListeningSocket) throws {
    do {
      try state.withLock { state in
        try Self.checkStartable(state)
        signal(SIGPIPE, SIG_IGN)
        let waker = try LoopWaker()
        try startLoopThread(listener: listener, waker: waker)
        state.phase = .running(waker)
        state.listenerPath = listener.path
      }
    } catch {
      listener.close()
      throw error
    }
  }

  private func checkStartable() throws {
    try state.withLock { try Self.checkStartable($0) }
  }

  private static func checkStartable(_ state: State) throws {
    guard case .idle = state.phase, !state.shutdownRequested else {
      throw ServerError.invalidState("the server was already started or shut down")
    }
  }

  /// Requests a graceful shutdown; returns at once. Safe from any thread, idempotent.
  public func shutdown() {
    let waker = state.withLock { state -> LoopWaker? in
      state.shutdownRequested = true
      switch state.phase {
      case .running(let waker):
        return waker
      case .idle:
        state.phase = .stopped
        resumeWaiters(&state)
        return nil
      case .stopped:
        return nil
      }
    }
    waker?.requestShutdown()
  }

  /// Graceful shutdown that returns when it is complete (socket and lock file removed).
  public func stop() async {
    shutdown()
    await waitUntilStopped()
  }

  /// Returns once the server has stopped (after a graceful shutdown completed), or
  /// early when the calling task is cancelled.
  public func waitUntilStopped() async {
    let id = state.withLock { state in
      defer { state.nextWaiterID += 1 }
      return state.nextWaiterID
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let resumeNow = state.withLock { state -> Bool in
          if case .stopped = state.phase { return true }
          // Cancelled before we registered: onCancel found nothing to resume.
          if Task.isCancelled { return true }
          state.waiters[id] = continuation
          return false
        }
        if resumeNow { continuation.resume() }
      }
    } onCancel: {
      state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
    }
  }

  /// Starts the server and returns after it was shut down (e.g. by SIGTERM when
  /// `stopOnTerminationSignals()` was called): the daemon's main can then exit 0.
  public func run() async throws {
    try start()
    await waitUntilStopped()
  }

  private func startLoopThread(listener: ListeningSocket, waker: LoopWaker) throws {
    // The loop owns non-Sendable state, so it is built on its own thread; the
    // semaphore hands the outcome of building it back to `start`.
    let outcome = Locked<ServerError?>(nil)
    let ready = DispatchSemaphore(value: 0)
    let configuration = self.configuration
    let delegate = self.delegate
    let drain = self.drain
    let thread = Thread { [self] in
      // Named from inside: that is when Foundation can apply it to the OS thread (top -H).
      Thread.current.name = "server-io"
      let loop: EventLoop
      do {
        loop = try EventLoop(
          listener: listener, waker: waker, configuration: configuration, delegate: delegate,
          drain: drain, onFinished: { self.loopDidFinish() })
      } catch {
        outcome.withLock { $0 = error as? ServerError ?? .invalidState("\(error)") }
        ready.signal()
        return
      }
      ready.signal()
      loop.run()
    }
    thread.start()
    ready.wait()
    if let error = outcome.withLock({ $0 }) { throw error }
  }

  private func loopDidFinish() {
    state.withLock { state in
      state.phase = .stopped
      resumeWaiters(&state)
    }
  }

  private func resumeWaiters(_ state: inout State) {
    for waiter in state.waiters.values { waiter.resume() }
    state.waiters.removeAll()
  }
}
