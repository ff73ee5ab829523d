import BlocCore
import Dispatch
import Glibc

/// Turns SIGTERM/SIGINT into a callback instead of process death.
///
/// Each signal is set to SIG_IGN (so it no longer kills the process) and observed by
/// a Dispatch signal source, which works whichever thread the kernel picks and needs
/// no async-signal-safe code. libdispatch hooks the signal only once the source is
/// registered, asynchronously on its manager thread; until then a delivery would be
/// ignored and lost, so `init` returns only after every source reported registration.
public final class TerminationSignals: Sendable {
  private let sources: Locked<[any DispatchSourceSignal]>

  /// Starts observing `signals`; `handler` runs on a Dispatch queue for each delivery.
  public init(
    _ signals: [Int32] = [SIGTERM, SIGINT], handler: @escaping @Sendable (Int32) -> Void
  ) {
    let registered = DispatchSemaphore(value: 0)
    var installed: [any DispatchSourceSignal] = []
    for number in signals {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { handler(number) }
      source.setRegistrationHandler { registered.signal() }
      source.resume()
      installed.append(source)
    }
    for _ in signals {
      // Bounded so a libdispatch oddity cannot hang startup; it registers in microseconds.
      _ = registered.wait(timeout: .now() + .seconds(5))
    }
    sources = Locked(installed)
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
