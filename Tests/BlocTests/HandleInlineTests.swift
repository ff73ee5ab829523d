import BlocCore
import Foundation
import Testing

/// `handleInline` (what a server uses to handle an event straight through its loop turn) does
/// exactly what `add` would do on an idle bloc with a synchronous handler, and nothing at all
/// otherwise; `storeStatus` then says what became of the change. (Other tests add global
/// observers for a moment; while one wants `.done`, `handleInline` rightly declines every event,
/// so these tests assert what holds either way.)
@Suite struct HandleInlineTests {
  enum Event: BlocEvent, Hashable { case increment, fail, wait }

  /// `.wait` suspends until `gate` opens: a handler that is busy for as long as the test says.
  static func counter(
    storage: (any BlocStorage)? = nil, gate: Gate = Gate()
  ) -> Bloc<Event, Tally> {
    Bloc(
      initialState: Tally(count: 0),
      persistence: storage.map { Persistence(storage: $0, key: "tally") }
    ) { bloc in
      bloc.on(.increment) { _, emit in emit.update { $0.count += 1 } }
      bloc.on(.fail) { _, _ in throw Refused() }
      bloc.on(.wait) { _, emit in
        await gate.wait()
        emit.update { $0.count += 10 }
      }
    }
  }

  @Test func anIdleBlocWithASynchronousHandlerHandlesTheEventAtOnce() async {
    let bloc = Self.counter()
    guard let done = bloc.handleInline(.increment) else {
      #expect(bloc.state.count == 0, "declined: nothing happened")
      return
    }
    #expect(done.outcome.isHandled)
    #expect(done.changed == 0, "nothing waits for storage without persistence")
    #expect(bloc.state.count == 1)
    #expect(bloc.handleInline(.fail).map { $0.outcome.isHandled } != true)
    #expect(bloc.state.count == 1)
  }

  @Test func aSuspendingHandlerOrABusyBlocIsLeftToAdd() async {
    let gate = Gate()
    let bloc = Self.counter(gate: gate)
    #expect(bloc.handleInline(.wait) == nil)
    #expect(bloc.state.count == 0, "not handled: nothing happened")
    let receipt = bloc.add(.wait)
    #expect(bloc.handleInline(.increment) == nil, "busy: the event must wait its turn")
    gate.open()
    _ = await receipt.outcome
    await bloc.settled()
    #expect(bloc.state.count == 10)
  }

  @Test func aSubclassOrAnObserverThatWantsOutcomesIsLeftToAdd() async {
    let subclass = TallyBloc(storage: InMemoryStorage())
    #expect(subclass.handleInline(.increment) == nil)
    let observed = Self.counter()
    let token = observed.addObserver(DoneObserver())
    #expect(observed.handleInline(.increment) == nil)
    observed.removeObserver(token)
    #expect(observed.handleInline(.increment)?.outcome.isHandled != false)
  }

  @Test func aPersistedChangeIsFinalOnceStoredAndFailsWhenRefused() async {
    let storage = FaultyStorage()
    let bloc = Self.counter(storage: storage)
    guard let first = bloc.handleInline(.increment) else { return }
    #expect(first.changed == 1)
    await bloc.waitUntilStored()
    guard case .stored = bloc.storeStatus(of: 1) else {
      Issue.record("change 1 is stored")
      return
    }
    storage.failing = true
    guard let refused = bloc.handleInline(.increment) else { return }
    #expect(refused.changed == 2)
    await bloc.waitUntilStored()
    guard case .failed = bloc.storeStatus(of: 2) else {
      Issue.record("change 2 was refused: \(bloc.storeStatus(of: 2))")
      return
    }
    #expect(bloc.storedSnapshot.state.count == 1, "a refused change is never shown")
    #expect(bloc.state.count == 1, "nor built upon")
  }
}

/// The reducer's straight-through path applies the reducer with no job or emitter: it must do
/// what `add` does, hook for hook. (While another test has a global observer of `.done`,
/// `handleInline` rightly declines; these tests then check that nothing happened.)
@Suite struct HandleInlineReducerTests {
  enum Step: BlocEvent, Hashable { case add(Int), refuse }

  static func reducer(storage: (any BlocStorage)? = nil) -> Bloc<Step, Tally> {
    Bloc(
      initialState: Tally(count: 0),
      persistence: storage.map { Persistence(storage: $0, key: "tally") }
    ) { (tally: Tally, step: Step) throws(Refused) -> Tally in
      switch step {
      case .add(let amount): Tally(count: tally.count + amount)
      case .refuse: throw Refused()
      }
    }
  }

  @Test func aReducedEventTellsEveryHookInTheOrderAddDoes() async {
    let bloc = Self.reducer()
    let heard = Heard()
    bloc.addObserver(heard)
    guard let done = bloc.handleInline(.add(2)) else {
      #expect(bloc.state.count == 0, "declined: nothing happened")
      return
    }
    #expect(done.outcome.isHandled)
    #expect(done.changed == 0, "nothing waits for storage without persistence")
    #expect(bloc.state.count == 2)
    #expect(heard.lines == ["event add(2)", "transition 0 add(2) 2", "change 0 2"])
    #expect(bloc.handleInline(.add(0)).map { $0.outcome.isHandled } != false)
    #expect(heard.lines.count <= 4, "an unchanged state is no change: its event only")
  }

  @Test func aThrowingReducerFailsTheEventAndChangesNothing() async {
    let bloc = Self.reducer()
    let heard = Heard()
    bloc.addObserver(heard)
    guard let done = bloc.handleInline(.refuse) else { return }
    guard case .failed(let error) = done.outcome else {
      Issue.record("a refused step fails: \(done.outcome)")
      return
    }
    #expect(error is Refused)
    #expect(bloc.state.count == 0)
    #expect(heard.lines == ["event refuse", "error Refused"])
    #expect(bloc.handleInline(.add(1))?.outcome.isHandled != false, "the lane is free again")
  }

  @Test func aPersistedReductionGivesItsSequenceAndIsStored() async {
    let bloc = Self.reducer(storage: InMemoryStorage())
    guard let done = bloc.handleInline(.add(5)) else { return }
    #expect(done.changed == 1)
    await bloc.waitUntilStored()
    guard case .stored = bloc.storeStatus(of: 1) else {
      Issue.record("change 1 is stored")
      return
    }
    #expect(bloc.storedSnapshot.state.count == 5)
  }

  @Test func aClosedOrBusyReducerIsLeftToAdd() async {
    let bloc = Self.reducer()
    await bloc.close()
    #expect(bloc.handleInline(.add(1)) == nil)
    #expect(bloc.state.count == 0)
  }
}

/// Every hook a bloc tells, as lines, in order.
private final class Heard: BlocObserver, @unchecked Sendable {  // lines behind the lock
  private let lock = NSLock()
  private var recorded: [String] = []
  var lines: [String] { lock.withLock { recorded } }
  /// Not `.done`: an observer of outcomes sends events the queued way.
  var hooks: BlocHooks { [.event, .change, .transition, .error] }

  private func note(_ line: String) { lock.withLock { recorded.append(line) } }
  func onEvent<Event, State>(_ bloc: Bloc<Event, State>, event: Event) { note("event \(event)") }
  func onChange<State>(_ bloc: BlocBase<State>, change: Change<State>) {
    note("change \(count(change.current)) \(count(change.next))")
  }
  func onTransition<Event, State>(
    _ bloc: Bloc<Event, State>, transition: Transition<Event, State>
  ) {
    note("transition \(count(transition.current)) \(transition.event) \(count(transition.next))")
  }
  func onError<State>(_ bloc: BlocBase<State>, error: any Error) {
    let failure = (error as? HandlerFailure<HandleInlineReducerTests.Step>)?.error ?? error
    note("error \(type(of: failure))")
  }
  private func count<State>(_ state: State) -> Int { (state as? Tally)?.count ?? -1 }
}

private struct Refused: Error {}

private struct DoneObserver: BlocObserver {
  var hooks: BlocHooks { .done }
}

/// An event handled straight through claims the reducer's order without the dispatch lock;
/// whatever arrives meanwhile must still wait for it and run after it, in order.
@Suite struct HandleInlineClaimTests {
  @Test func anEventAddedWhileAReductionRunsWaitsForItThenRuns() async {
    let bloc = HandleInlineReducerTests.reducer()
    let chain = ChainObserver()
    bloc.addObserver(chain)
    guard let done = bloc.handleInline(.add(2)) else {
      #expect(bloc.state.count == 0, "declined: nothing happened")
      return
    }
    #expect(done.outcome.isHandled)
    await bloc.settled()
    #expect(bloc.state.count == 12, "the event added from the hook ran after the first")
    #expect(chain.changes == [[0, 2], [2, 12]])
    #expect(bloc.handleInline(.add(1))?.outcome.isHandled != false, "the order is free again")
    await bloc.close()
    #expect(bloc.handleInline(.add(1)) == nil, "closed")
  }
}

/// On the first change it sees, adds `.add(10)` to the same bloc (which is still handling the
/// event that made the change); records every change.
private final class ChainObserver: BlocObserver, @unchecked Sendable {  // behind the lock
  private let lock = NSLock()
  private var seen: [[Int]] = []
  var changes: [[Int]] { lock.withLock { seen } }
  var hooks: BlocHooks { [.change] }

  func onChange<State>(_ bloc: BlocBase<State>, change: Change<State>) {
    guard let current = change.current as? Tally, let next = change.next as? Tally else { return }
    let first = lock.withLock {
      seen.append([current.count, next.count])
      return seen.count == 1
    }
    if first, let reducer = bloc as? Bloc<HandleInlineReducerTests.Step, Tally> {
      #expect(reducer.state.count == 2)
      reducer.add(.add(10))
      #expect(reducer.state.count == 2, "not before the first event is done")
    }
  }
}
