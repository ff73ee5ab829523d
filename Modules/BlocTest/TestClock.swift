import BlocCore

/// A clock that moves only when told to: debounce, throttle and timeouts run in virtual time.
///
/// ```swift
/// let clock = TestClock()
/// let bloc = SearchBloc(clock: clock)
/// bloc.add(.search("maps"))
/// clock.advance(by: .milliseconds(300))
/// await bloc.settled()
/// ```
public final class TestClock: Clock, Sendable {
  public struct Instant: InstantProtocol, CustomStringConvertible {
    /// Time since the clock was created.
    public let offset: Duration

    public init(offset: Duration = .zero) { self.offset = offset }
    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    public var description: String { "t+\(offset)" }
  }

  private struct Sleeper {
    let id: UInt64
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct Timeline {
    var now = Instant()
    var sleepers: [Sleeper] = []
    var lastID: UInt64 = 0
  }

  private let timeline = Locked(Timeline())

  public init() {}

  public var now: Instant { timeline.withLock { $0.now } }
  public var minimumResolution: Duration { .zero }

  /// How many tasks are sleeping on this clock.
  public var sleeperCount: Int { timeline.withLock { $0.sleepers.count } }

  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let id = timeline.withLock { timeline in
      timeline.lastID &+= 1
      return timeline.lastID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let outcome: Result<Void, any Error>? = timeline.withLock { timeline in
          if Task.isCancelled { return .failure(CancellationError()) }
          if deadline <= timeline.now { return .success(()) }
          timeline.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return nil
        }
        if let outcome { continuation.resume(with: outcome) }
      }
    } onCancel: {
      let sleeper = timeline.withLock { timeline -> Sleeper? in
        guard let index = timeline.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return timeline.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// The earliest deadline a task sleeps until, if any.
  public var nextDeadline: Instant? { timeline.withLock { $0.sleepers.map(\.deadline).min() } }

  /// Moves time forward and wakes every sleeper whose deadline has come, earliest first.
  ///
  /// Work woken by one deadline cannot run before later deadlines in the same call are
  /// reached; to step through deadlines one at a time use ``BlocTestContext/advance(by:)``.
  public func advance(by duration: Duration) {
    advance(to: now.advanced(by: duration))
  }

  /// Moves time to `instant` (never backwards) and wakes the sleepers whose deadline has come.
  public func advance(to instant: Instant) {
    let woken = timeline.withLock { timeline -> [Sleeper] in
      timeline.now = max(timeline.now, instant)
      let now = timeline.now
      let due = timeline.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
      timeline.sleepers.removeAll { $0.deadline <= now }
      return due
    }
    for sleeper in woken { sleeper.continuation.resume() }
  }
}
