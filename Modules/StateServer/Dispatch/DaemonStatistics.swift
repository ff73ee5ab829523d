import BlocCore
import Glibc
import Synchronization

/// What the daemon has done since it started, for `info`: requests read and refused, and the
/// outcomes of the events sent. Counted with relaxed atomics: a count read while requests run
/// may lag by the ones in flight.
final class DaemonStatistics: Sendable {
  /// CLOCK_MONOTONIC when the daemon started serving, in nanoseconds.
  let started = DaemonStatistics.monotonicNanoseconds()
  let requests = Atomic<Int>(0)
  /// Requests answered with an error before they reached a feature (bad JSON, unknown op,
  /// feature or event, invalid fields…).
  let refused = Atomic<Int>(0)
  /// `send` requests refused that way: events that never reached their feature.
  let refusedEvents = Atomic<Int>(0)
  let handled = Atomic<Int>(0)
  let dropped = Atomic<Int>(0)
  let cancelled = Atomic<Int>(0)
  let failed = Atomic<Int>(0)

  func countRequest() { requests.add(1, ordering: .relaxed) }

  func countRefusal(op: String?) {
    refused.add(1, ordering: .relaxed)
    if op == "send" { refusedEvents.add(1, ordering: .relaxed) }
  }

  func count(_ outcome: EventOutcome) {
    switch outcome {
    case .handled: handled.add(1, ordering: .relaxed)
    case .dropped: dropped.add(1, ordering: .relaxed)
    case .cancelled: cancelled.add(1, ordering: .relaxed)
    case .failed: failed.add(1, ordering: .relaxed)
    }
  }

  /// Whole seconds since ``started``.
  var uptimeSeconds: Int {
    Int((Self.monotonicNanoseconds() - started) / 1_000_000_000)
  }

  static func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
  }
}
