import Synchronization

/// The bloc's order claimed without its `dispatch` lock: what lets an event handled straight
/// through (``Bloc/handleInline(_:)``) on an idle bloc whose events all go to its reducer take
/// no dispatch lock at all, where a claim and a finish under it took two trips.
///
/// One atomic word, the gate, says who decides about the bloc's order:
/// - ``free``: the lock's records say the order is idle and open (no runner, nothing queued or
///   held, not closed) and every event goes to the reducer: a caller may claim it by changing
///   the word to ``inline``, and gives it back by changing it back, with no lock;
/// - ``inline``: claimed that way;
/// - ``awaited``: claimed that way, and the lock's records count the claimant as the order's
///   runner (something joined the queue or waits for the bloc to settle): it ends through the
///   lock, as an inline runner does (``Bloc/finished(runner:lane:handingOver:)``);
/// - ``locked``: the lock's records decide, as for any other bloc.
///
/// Every section under the dispatch lock begins by taking the word from the claimants
/// (``Bloc/withDispatch(_:)``): a free order becomes ``locked``, a claimed one ``awaited``
/// with a runner entry for its claimant (so the section sees the order busy, and what it
/// queues runs after the claimant, in order); and it ends by opening the order again when the
/// records allow it.
enum LaneGate: UInt8, AtomicRepresentable {
  case free, inline, awaited, locked

  /// The runner id that stands for the claimant in the lock's records (``awaited``); never an
  /// id the records hand out (``Bloc/DispatchState/nextID()`` counts up from 1).
  static let claimant = UInt64.max
}

extension Bloc {
  /// Runs `body` under the dispatch lock, with the order taken from the claimants first and
  /// opened to them again after (see ``LaneGate``). Every section under the lock goes here.
  @inline(__always) final func withDispatch<Result>(
    _ body: (inout DispatchState) throws -> Result
  ) rethrows -> Result {
    try dispatch.withLock { dispatch in
      seizeLane(&dispatch)
      defer { reopenLane(&dispatch) }
      return try body(&dispatch)
    }
  }

  /// Takes the order from the claimants (under the lock): a free order becomes ``LaneGate/locked``;
  /// a claimed one ``LaneGate/awaited``, its claimant now a runner in the records.
  private func seizeLane(_ dispatch: inout DispatchState) {
    var word = laneGate.load(ordering: .acquiring)
    while word == .free || word == .inline {
      let next: LaneGate = word == .free ? .locked : .awaited
      let (exchanged, found) = laneGate.compareExchange(
        expected: word, desired: next, ordering: .acquiringAndReleasing)
      if exchanged {
        if next == .awaited {
          // Counted as work until it ends, like the runner of any inline job.
          dispatch.activeWork += 1
          dispatch.main.runner = Runner(id: LaneGate.claimant, task: nil)
        }
        return
      }
      word = found
    }
  }

  /// Opens the order to claimants again when the records allow it (under the lock, at the end
  /// of every section). An ``LaneGate/awaited`` order stays so until its claimant ends.
  private func reopenLane(_ dispatch: inout DispatchState) {
    guard dispatch.reducerOnly, laneGate.load(ordering: .relaxed) == .locked else { return }
    if dispatch.opensLane {
      if freeReducer == nil { freeReducer = dispatch.reducer?.reduce }
      laneGate.store(.free, ordering: .releasing)
    } else if dispatch.isClosed {
      // `close()` releases the handlers, so they may capture the bloc.
      freeReducer = nil
    }
  }

  /// Claims a free order without the lock; returns the reducer to run, or nil when the order is
  /// not free (then ask the lock).
  final func claimFreeLane() -> (@Sendable (State, Event) throws -> State)? {
    guard
      laneGate.compareExchange(
        expected: .free, desired: .inline, ordering: .acquiring
      ).exchanged
    else { return nil }
    // Set before the word became free, and not changed until the lock has the order back.
    guard let reduce = freeReducer else {
      endFreeClaim()
      return nil
    }
    return reduce
  }

  /// Gives back an order claimed with ``claimFreeLane()``: with no lock unless something
  /// queued or waits meanwhile; then the claimant ends as the records' runner, handing what
  /// queued up to a runner task.
  final func endFreeClaim() {
    if laneGate.compareExchange(
      expected: .inline, desired: .free, ordering: .releasing
    ).exchanged {
      return
    }
    endInlineRunner(LaneGate.claimant)
  }
}

extension Bloc.DispatchState {
  /// Whether the order may be claimed without the lock: idle, open, nothing held, and every
  /// event goes to the reducer (no handler of its own, so nothing can cancel it).
  fileprivate var opensLane: Bool {
    reducerOnly && !isClosed && held == nil && main.runner == nil && main.current == nil
      && main.queue.isEmpty
  }
}
