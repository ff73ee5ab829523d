import Synchronization

/// A state with its sequence number. The number grows by one with every change, so a
/// subscriber that skipped states (see ``BlocBase/updates``) can tell how many it missed.
public struct StateUpdate<State: Sendable>: Sendable {
  public let sequence: UInt64
  public let state: State

  public init(sequence: UInt64, state: State) {
    self.sequence = sequence
    self.state = state
  }
}

extension StateUpdate: Equatable where State: Equatable {}

/// The states of a bloc as an `AsyncSequence`: the current state first, then every later
/// distinct state.
///
/// Slow subscribers never block the bloc or each other and never buffer: a subscriber that
/// falls behind receives the latest state when it asks for the next one, and
/// ``StateUpdate/sequence`` shows the gap. The sequence ends when the bloc closes (after
/// delivering its final state) or when the iterating task is cancelled.
public struct StateStream<State: Sendable & Equatable, Element: Sendable>: AsyncSequence, Sendable {
  fileprivate let source: BlocBase<State>
  fileprivate let transform: @Sendable (StateUpdate<State>) -> Element
  /// Whether a state is worth waking for, given the last element delivered; nil means always.
  fileprivate let isChange: (@Sendable (Element, State) -> Bool)?

  public func makeAsyncIterator() -> Iterator {
    Iterator(source: source, transform: transform, isChange: isChange)
  }

  public struct Iterator: AsyncIteratorProtocol {
    private let source: BlocBase<State>
    private let transform: @Sendable (StateUpdate<State>) -> Element
    private let isChange: (@Sendable (Element, State) -> Bool)?
    private var lastSequence: UInt64?
    private var lastElement: Element?
    /// When this subscriber last caught up with the bloc, or `.max` once it found a newer state
    /// (see `BlocBase.newerPublished`).
    private var caughtUp = 0

    fileprivate init(
      source: BlocBase<State>, transform: @escaping @Sendable (StateUpdate<State>) -> Element,
      isChange: (@Sendable (Element, State) -> Bool)?
    ) {
      self.source = source
      self.transform = transform
      self.isChange = isChange
    }

    public mutating func next() async -> Element? {
      var accept: (@Sendable (State) -> Bool)? = nil
      if let isChange, let lastElement {
        accept = { state in isChange(lastElement, state) }
      }
      guard
        let update = await source.nextUpdate(
          after: lastSequence, accept: accept, caughtUp: &caughtUp)
      else {
        return nil
      }
      lastSequence = update.sequence
      let element = transform(update)
      lastElement = element
      return element
    }
  }
}

extension BlocBase {
  /// The current state, then every later distinct state (see ``StateStream``).
  public var states: StateStream<State, State> {
    StateStream(source: self, transform: { $0.state }, isChange: nil)
  }

  /// Like ``states``, with sequence numbers that reveal skipped states.
  public var updates: StateStream<State, StateUpdate<State>> {
    StateStream(source: self, transform: { $0 }, isChange: nil)
  }

  /// A derived value: the current one first, then each time it changes. The subscriber is not
  /// woken by changes that leave the value equal. `selector` must be quick and pure.
  ///
  /// ```swift
  /// for await isEven in counter.select({ $0 % 2 == 0 }) { … }
  /// ```
  public func select<Value: Equatable & Sendable>(
    _ selector: @escaping @Sendable (State) -> Value
  ) -> StateStream<State, Value> {
    StateStream(
      source: self, transform: { selector($0.state) },
      isChange: { last, state in selector(state) != last })
  }

  /// The next update after `sequence` (nil: the current state at once) that `accept` takes.
  /// One lock round-trip when it must wait, one when it need not. `caughtUp` is the
  /// subscriber's own, for ``newerPublished(than:caughtUp:)``.
  fileprivate final func nextUpdate(
    after sequence: UInt64?, accept: (@Sendable (State) -> Bool)?, caughtUp: inout Int
  ) async -> StateUpdate<State>? {
    // A subscriber that fell behind takes the newest state at once, without a continuation or
    // a cancellation handler. The published sequence is only a hint: the lock decides.
    if let sequence, newerPublished(than: sequence, caughtUp: &caughtUp) {
      let ready = core.withLock { core -> StateUpdate<State>? in
        guard core.sequence > sequence, accept?(core.state) ?? true else { return nil }
        return StateUpdate(sequence: core.sequence, state: core.state)
      }
      if let ready { return ready }
    }
    let id = waiterIDs.add(1, ordering: .relaxed).newValue
    return await withTaskCancellationHandler {
      await withUnsafeContinuation { continuation in
        let ready: StateUpdate<State>?? = core.withLock { core in
          let current = StateUpdate(sequence: core.sequence, state: core.state)
          let isNew = sequence.map { core.sequence > $0 } ?? true
          if isNew, accept?(core.state) ?? true { return .some(current) }
          if core.isClosed || Task.isCancelled { return .some(nil) }
          core.waiters.append(Waiter(id: id, accept: accept, continuation: continuation))
          return nil
        }
        if let ready { continuation.resume(returning: ready) }
      }
    } onCancel: {
      let waiter = core.withLock { core -> Waiter? in
        guard let index = core.waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return core.waiters.remove(at: index)
      }
      waiter?.continuation.resume(returning: nil)
    }
  }
}
