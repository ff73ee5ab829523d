import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How long a subscriber looks for a newer state before it parks, in nanoseconds
/// (``BlocBase/newerPublished(than:)``): none on a single processor.
private let subscriberLookNanoseconds = sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1 ? 20_000 : 0

/// The subscribers waiting for a state (``StateStream``): which a change wakes, and how one
/// that caught up with a busy bloc looks again before parking.
extension BlocBase {
  /// A subscriber waiting for a state (``StateStream``).
  struct Waiter {
    let id: UInt64
    fileprivate let accept: (@Sendable (State) -> Bool)?
    /// Unsafe (a checked one allocates per wait): resumed once, by whoever removes the waiter
    /// from the core under its lock, or at once when it never joins.
    let continuation: UnsafeContinuation<StateUpdate<State>?, Never>

    init(
      id: UInt64, accept: (@Sendable (State) -> Bool)?,
      continuation: UnsafeContinuation<StateUpdate<State>?, Never>
    ) {
      self.id = id
      self.accept = accept
      self.continuation = continuation
    }
  }

  /// Removes and returns the waiters that `state` wakes. No allocation when none waits, nor
  /// for one waiter (a subscriber's usual wait): it is taken out of an array that keeps its
  /// buffer for the next wait.
  final func takeWaiters(_ core: inout Core, for state: State) -> Woken {
    guard !core.waiters.isEmpty else { return Woken() }
    if core.waiters.count == 1 {
      guard core.waiters[0].accept?(state) ?? true else { return Woken() }
      return Woken(first: core.waiters.removeLast())
    }
    if !core.waiters.contains(where: { $0.accept != nil }) {
      defer { core.waiters = [] }
      return Woken(more: core.waiters)
    }
    var woken: [Waiter] = []
    core.waiters.removeAll { waiter in
      guard waiter.accept?(state) ?? true else { return false }
      woken.append(waiter)
      return true
    }
    return Woken(more: woken)
  }

  /// The subscribers a change wakes: one apart, the usual case, so that none needs an array.
  struct Woken {
    private let first: Waiter?
    private let more: [Waiter]

    init(first: Waiter? = nil, more: [Waiter] = []) {
      self.first = first
      self.more = more
    }

    var isEmpty: Bool { first == nil && more.isEmpty }

    /// Hands `update` to each of them.
    func resume(returning update: StateUpdate<State>) {
      first?.continuation.resume(returning: update)
      for waiter in more { waiter.continuation.resume(returning: update) }
    }
  }

  /// Whether a state newer than `sequence` was published, looking again for a moment before
  /// saying no: a subscriber that caught up with a busy bloc usually finds the next state
  /// within a microsecond, and taking it then costs far less than parking the subscriber and
  /// waking it (a futex wake-up on the bloc's thread for every change, often a context switch
  /// too). One subscriber of a bloc looks at a time (the others park at once), for at most
  /// ``subscriberLookNanoseconds``; none on a single processor, where looking would only delay
  /// the bloc.
  ///
  /// The look is bounded by time, not by a count of loads, and is long beside a change: when
  /// it was shorter than the time a change takes while it wakes a parked subscriber, the
  /// subscriber parked after every change, each change paid a wake-up and so took longer
  /// again (the adding thread's time doubled, for good, from one run to the next).
  ///
  /// A subscriber looks only while the bloc is busy: since it last caught up it found a newer
  /// state waiting or by looking, or it caught up (or gave up looking) less than a look's time
  /// ago (`caughtUp`, the subscriber's own: when it last found nothing newer, on the monotonic
  /// clock, or `.max` once it found something). A look at a bloc that changes now and then
  /// would cost the whole look, on a processor of its own, for every change; now such a
  /// subscriber parks at once, and a busy bloc's first change after a pause wakes it once more.
  final func newerPublished(than sequence: UInt64, caughtUp: inout Int) -> Bool {
    let published = self.published
    if published.sequence.load(ordering: .relaxed) > sequence {
      caughtUp = .max
      return true
    }
    guard subscriberLookNanoseconds > 0 else { return false }
    let now = monotonicNanoseconds()
    let busy = caughtUp == .max || now &- caughtUp < subscriberLookNanoseconds
    caughtUp = now
    guard busy,
      published.looking.compareExchange(expected: false, desired: true, ordering: .relaxed)
        .exchanged
    else { return false }
    defer { published.looking.store(false, ordering: .relaxed) }
    let deadline = now &+ subscriberLookNanoseconds
    var clock = now
    repeat {
      for _ in 0..<256 where published.sequence.load(ordering: .relaxed) > sequence {
        caughtUp = .max
        return true
      }
      clock = monotonicNanoseconds()
    } while clock < deadline
    // From when it parks: a change soon after (a bloc that paused a moment) is looked for again.
    caughtUp = clock
    return false
  }

  /// How many subscribers wait for a change; for tests.
  @_spi(Testing) public var waiterCountForTesting: Int { core.withLock { $0.waiters.count } }
}

/// The monotonic clock in nanoseconds, read without Swift's clock types (whose instants are
/// copied and compared through their value witnesses).
private func monotonicNanoseconds() -> Int {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return now.tv_sec &* 1_000_000_000 &+ now.tv_nsec
}
