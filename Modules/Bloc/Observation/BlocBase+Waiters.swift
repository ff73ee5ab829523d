import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How many times a subscriber looks for a newer state before it parks
/// (``BlocBase/newerPublished(than:)``): none on a single processor.
let subscriberSpins = sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1 ? 2_000 : 0

/// The subscribers waiting for a state (``StateStream``): which a change wakes, and how one
/// that caught up with a busy bloc looks again before parking.
extension BlocBase {
  /// A subscriber waiting for a state (``StateStream``).
  @usableFromInline struct Waiter {
    let id: UInt64
    @usableFromInline let accept: (@Sendable (State) -> Bool)?
    @usableFromInline let continuation: UnsafeContinuation<StateUpdate<State>?, Never>

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
  @inlinable final func takeWaiters(_ core: inout Core, for state: State) -> Woken {
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
  @usableFromInline struct Woken {
    @usableFromInline let first: Waiter?
    @usableFromInline let more: [Waiter]

    @inlinable init(first: Waiter? = nil, more: [Waiter] = []) {
      self.first = first
      self.more = more
    }

    @inlinable var isEmpty: Bool { first == nil && more.isEmpty }

    /// Hands `update` to each of them.
    @inlinable func resume(returning update: StateUpdate<State>) {
      first?.continuation.resume(returning: update)
      for waiter in more { waiter.continuation.resume(returning: update) }
    }
  }

  /// Whether a state newer than `sequence` was published, looking again for a moment before
  /// saying no: a subscriber that caught up with a busy bloc usually finds the next state
  /// within a microsecond, and taking it then costs far less than parking the subscriber and
  /// waking it (a futex wake-up on the bloc's thread for every change, often a context switch
  /// too). One subscriber of a bloc looks at a time (the others park at once), for at most
  /// ``subscriberSpins`` loads; none on a single processor, where looking would only delay the
  /// bloc.
  final func newerPublished(than sequence: UInt64) -> Bool {
    if publishedSequence.load(ordering: .relaxed) > sequence { return true }
    guard subscriberSpins > 0,
      spinning.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
    else { return false }
    defer { spinning.store(false, ordering: .relaxed) }
    for _ in 0..<subscriberSpins {
      if publishedSequence.load(ordering: .relaxed) > sequence { return true }
    }
    return false
  }

  /// How many subscribers wait for a change; for tests.
  @_spi(Testing) public var waiterCountForTesting: Int { core.withLock { $0.waiters.count } }
}
