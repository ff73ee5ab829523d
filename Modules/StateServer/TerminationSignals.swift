import Dispatch
import Glibc
import Synchronization

/// Turns SIGTERM/SIGINT into a callback instead of process death.
///
/// The signals' default action is replaced by SIG_IGN and a Dispatch signal source
/// observes them (libdispatch reads them with signalfd on Linux), so this works no
/// matter which thread the kernel picks and needs no async-signal-safe code.
public final class TerminationSignals: Sendable {
  private let sources: Mutex<[any DispatchSourceSignal]>

  /// Starts observing `signals`; `handler` runs on a Dispatch queue for each delivery.
  public init(
    _ signals: [Int32] = [SIGTERM, SIGINT], handler: @escaping @Sendable (Int32) -> Void
  ) {
    var installed: [any DispatchSourceSignal] = []
    for number in signals {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { handler(number) }
      source.resume()
      installed.append(source)
    }
    sources = Mutex(installed)
  }

  /// Stops observing; the signals stay ignored.
  public func cancel() {
    let current = sources.withLock { sources in
      defer { sources = [] }
      return sources
    }
    for source in current { source.cancel() }
  }

  deinit {
    cancel()
  }
}

extension Server {
  /// Makes SIGTERM and SIGINT request a graceful shutdown. Keep the returned value
  /// alive for as long as the signals should be handled.
  public func stopOnTerminationSignals() -> TerminationSignals {
    TerminationSignals { [weak self] _ in self?.shutdown() }
  }
}
