import BlocCore
import BlocTest
import Testing

@Suite struct TransformerTests {
  @Test func sequentialRunsOneAtATimeInOrder() async {
    let first = Gate()
    let bloc = GatedBloc(transformer: .sequential, gates: [1: first])
    let log = LogObserver()
    bloc.addObserver(log)
    let one = bloc.add(.value(1))
    let two = bloc.add(.value(2))
    await eventually { first.waiting == 1 }
    #expect(two.resolvedOutcome == nil, "the second waits for the first")
    first.open()
    #expect(await one.outcome.isHandled)
    #expect(await two.outcome.isHandled)
    #expect(log.all.filter { $0.hasPrefix("change") } == ["change 0->1", "change 1->2"])
  }

  @Test func sendHandlesInlineThenHandsQueuedEventsToARunnerInOrder() async {
    let first = Gate()
    let bloc = GatedBloc(transformer: .sequential, gates: [1: first])
    let log = LogObserver()
    bloc.addObserver(log)
    let sending = Task { await bloc.send(.value(1)) }
    await eventually { first.waiting == 1 }
    let two = bloc.add(.value(2))
    let three = bloc.add(.value(3))
    #expect(two.resolvedOutcome == nil, "queued behind the inline handler")
    first.open()
    #expect(await sending.value.isHandled)
    #expect(await two.outcome.isHandled)
    #expect(await three.outcome.isHandled)
    #expect(
      log.all.filter { $0.hasPrefix("change") } == ["change 0->1", "change 1->2", "change 2->3"])
  }

  @Test func sequentialNeverLosesAnUpdate() async {
    let bloc = CounterBloc()
    await withTaskGroup(of: Void.self) { group in
      for worker in 0..<8 {
        group.addTask {
          for _ in 0..<250 {
            // Mix the inline fast path (send) with queued adds.
            if worker.isMultiple(of: 2) {
              await bloc.send(.increment)
            } else {
              bloc.add(.increment)
            }
          }
        }
      }
    }
    await bloc.settled()
    #expect(bloc.state == 2000)
  }

  @Test func concurrentRunsBesideEachOther() async {
    let first = Gate()
    let bloc = GatedBloc(transformer: .concurrent, gates: [1: first])
    let one = bloc.add(.value(1))
    await eventually { first.waiting == 1 }
    #expect(await bloc.add(.value(2)).outcome.isHandled, "the second does not wait for the first")
    #expect(bloc.state == 2)
    first.open()
    #expect(await one.outcome.isHandled)
    #expect(bloc.state == 1)
  }

  @Test func droppableDropsWhileBusy() async {
    let first = Gate()
    let bloc = GatedBloc(transformer: .droppable, gates: [1: first])
    let one = bloc.add(.value(1))
    await eventually { first.waiting == 1 }
    guard case .dropped = await bloc.add(.value(2)).outcome else {
      Issue.record("expected dropped")
      return
    }
    first.open()
    #expect(await one.outcome.isHandled)
    #expect(await bloc.add(.value(3)).outcome.isHandled, "idle again after the first finished")
    #expect(bloc.state == 3)
  }

  @Test func hooksOfADroppedEventRunOutsideTheBlocsLock() async {
    /// Reads the bloc's dispatch state from onDone: this deadlocked while drops were
    /// concluded under the lock.
    struct Peeker: BlocObserver {
      let seen: Locked<[String]>
      func onDone<Event, State>(_ bloc: Bloc<Event, State>, event: Event, outcome: EventOutcome) {
        let delay = bloc.nextDelay
        seen.withLock { $0.append("\(outcome.name) \(delay == nil)") }
      }
    }
    let first = Gate()
    let bloc = GatedBloc(transformer: .droppable, gates: [1: first])
    let seen = Locked<[String]>([])
    bloc.addObserver(Peeker(seen: seen))
    let one = bloc.add(.value(1))
    await eventually { first.waiting == 1 }
    guard case .dropped = await bloc.add(.value(2)).outcome else {
      Issue.record("expected dropped")
      return
    }
    first.open()
    _ = await one.outcome
    #expect(seen.withLock { $0 } == ["dropped true", "handled true"])
  }

  @Test func restartableCancelsTheRunningHandlerAndItsStaleEmit() async {
    let stale = Gate()
    let bloc = GatedBloc(transformer: .restartable, gates: [1: stale])
    let one = bloc.add(.value(1))
    await eventually { stale.waiting == 1 }
    #expect(await bloc.add(.value(2)).outcome.isHandled)
    stale.open()
    guard case .cancelled = await one.outcome else {
      Issue.record("expected cancelled")
      return
    }
    #expect(bloc.state == 2, "the stale reply never overwrites the newer one")
  }

  @Test func debounceHandlesOnlyTheLatestAfterQuiet() async {
    await blocTest(
      build: { clock in GatedBloc(transformer: .debounce(.milliseconds(300)), clock: clock) },
      act: { context in
        let one = context.bloc.add(.value(1))
        await context.advance(by: .milliseconds(200))
        let two = context.bloc.add(.value(2))
        await context.advance(by: .milliseconds(299))
        #expect(context.bloc.state == 0, "still within the quiet period")
        await context.advance(by: .milliseconds(1))
        guard case .dropped = await one.outcome else {
          Issue.record("superseded event should be dropped")
          return
        }
        #expect(await two.outcome.isHandled)
      },
      expect: [2])
  }

  @Test func throttleHandlesFirstAtOnceThenTheLatestPerInterval() async {
    await blocTest(
      build: { clock in GatedBloc(transformer: .throttle(.milliseconds(200)), clock: clock) },
      act: { context in
        context.bloc.add(.value(1))
        await context.settle()
        #expect(context.bloc.state == 1, "the first runs at once")
        let two = context.bloc.add(.value(2))
        context.bloc.add(.value(3))
        await context.advance(by: .milliseconds(100))
        #expect(context.bloc.state == 1)
        await context.advance(by: .milliseconds(100))
        guard case .dropped = await two.outcome else {
          Issue.record("an event replaced within the window is dropped")
          return
        }
        await context.advance(by: .milliseconds(500))
        context.bloc.add(.value(4))
        await context.settle()
      },
      expect: [1, 3, 4])
  }

  @Test func throttleReadsItsIntervalEachTime() async {
    let interval = IntervalBox(.milliseconds(100))
    await blocTest(
      build: { clock in
        GatedBloc(transformer: .throttle { interval.value }, clock: clock)
      },
      act: { context in
        context.bloc.add(.value(1))
        await context.settle()
        interval.value = .milliseconds(1000)
        await context.advance(by: .milliseconds(100))  // the first window closes
        context.bloc.add(.value(2))  // opens a window of the new length
        context.bloc.add(.value(3))
        await context.advance(by: .milliseconds(999))
        #expect(context.bloc.state == 2)
        await context.advance(by: .milliseconds(1))
      },
      expect: [1, 2, 3])
  }

  @Test func aBlocWideDefaultAppliesToHandlersWithoutTheirOwn() async {
    final class Mixed: Bloc<CounterEvent, Int>, @unchecked Sendable {
      let gate = Gate()
      init() {
        super.init(initialState: 0, transformer: .droppable)
        on(.increment) { [gate] _, emit in
          await gate.wait()
          emit(emit.state + 1)
        }
        on(.decrement, transformer: .concurrent) { _, emit in emit(emit.state - 1) }
      }
    }
    let bloc = Mixed()
    let first = bloc.add(.increment)
    await eventually { bloc.gate.waiting == 1 }
    guard case .dropped = await bloc.add(.increment).outcome else {
      Issue.record("the bloc-wide droppable should drop")
      return
    }
    #expect(await bloc.add(.decrement).outcome.isHandled)
    bloc.gate.open()
    #expect(await first.outcome.isHandled)
  }
}

final class IntervalBox: Sendable {
  private let stored: Locked<Duration>
  init(_ value: Duration) { stored = Locked(value) }
  var value: Duration {
    get { stored.withLock { $0 } }
    set { stored.withLock { $0 = newValue } }
  }
}
