import BlocCore
import BlocTest
import Testing

/// Two kinds that yield while handled and log when each handler starts and ends.
enum PairEvent: BlocEvent, Hashable, CustomStringConvertible {
  case first(Int), second(Int)
  enum Kind { case first, second }
  var kind: Kind {
    switch self {
    case .first: .first
    case .second: .second
    }
  }
  var number: Int {
    switch self {
    case .first(let number), .second(let number): number
    }
  }
  var description: String { "\(kind)(\(number))" }
}

final class PairBloc: Bloc<PairEvent, Int>, @unchecked Sendable {
  let log = Locked<[String]>([])
  init() {
    super.init(initialState: 0)
    for kind in [PairEvent.Kind.first, .second] {
      on(kind) { [log] event, emit in
        log.withLock { $0.append("start \(event.number)") }
        for _ in 0..<3 { await Task.yield() }
        emit(event.number)
        log.withLock { $0.append("end \(event.number)") }
      }
    }
  }
}

@Suite struct OrderAcrossKindsTests {
  /// Events of different kinds once ran side by side (lanes were per kind), so a later one
  /// could start, and finish, before an earlier one.
  @Test func pipelinedPairsOfDifferentKindsRunOneAfterAnotherInOrder() async {
    let bloc = PairBloc()
    var receipts: [EventReceipt] = []
    for pair in 0..<300 {
      receipts.append(bloc.add(.first(pair * 2 + 1)))
      receipts.append(bloc.add(.second(pair * 2 + 2)))
    }
    for receipt in receipts { _ = await receipt.outcome }
    let expected = (1...600).flatMap { ["start \($0)", "end \($0)"] }
    #expect(bloc.log.withLock { $0 } == expected)
    #expect(bloc.state == 600)
    await bloc.close()
  }

  @Test func aLaterEventOfAnotherKindWaitsForTheRunningOne() async {
    let gate = Gate()
    let bloc = Bloc<PairEvent, Int>(initialState: 0) { bloc in
      bloc.on(.first) { event, emit in
        await gate.wait()
        emit(event.number)
      }
      bloc.on(.second) { event, emit in emit(event.number) }
    }
    let one = bloc.add(.first(1))
    await eventually { gate.waiting == 1 }
    let two = bloc.add(.second(2))
    #expect(two.resolvedOutcome == nil, "the second kind waits for the first event")
    #expect(bloc.state == 0)
    gate.open()
    #expect(await one.outcome.isHandled)
    #expect(await two.outcome.isHandled)
    #expect(bloc.state == 2)
  }

  @Test func concurrentOptsOutOfTheOrder() async {
    let gate = Gate()
    let bloc = Bloc<PairEvent, Int>(initialState: 0) { bloc in
      bloc.on(.first) { event, emit in
        await gate.wait()
        emit(event.number)
      }
      bloc.on(.second, transformer: .concurrent) { event, emit in emit(event.number) }
    }
    let one = bloc.add(.first(1))
    await eventually { gate.waiting == 1 }
    #expect(await bloc.add(.second(2)).outcome.isHandled, "a concurrent event does not wait")
    gate.open()
    #expect(await one.outcome.isHandled)
    #expect(bloc.state == 1)
  }

  @Test func aDebouncedEventJoinsTheOrderWhenItsTimerFires() async {
    await blocTest(
      build: { clock in
        Bloc<PairEvent, Int>(initialState: 0, clock: clock) { bloc in
          bloc.on(.first, transformer: .debounce(.seconds(1))) { event, emit in
            emit(event.number)
          }
          bloc.on(.second) { event, emit in emit(event.number) }
        }
      },
      act: { context in
        context.bloc.add(.first(1))
        context.bloc.add(.second(2))  // added later, handled first: the debounce holds 1
        await context.advance(by: .seconds(1))
      },
      expect: [2, 1])
  }
}

/// A search that takes a second and a clear that discards it, like AppSearch's.
struct Found: Equatable, Sendable {
  var term = ""
  var results: [String] = []
}

enum FindEvent: BlocEvent, Hashable {
  case search(String), clear
  enum Kind { case search, clear }
  var kind: Kind {
    switch self {
    case .search: .search
    case .clear: .clear
    }
  }
}

func makeFinder(
  clock: any Clock<Duration>, transformer: EventTransformer = .restartable
)
  -> Bloc<FindEvent, Found>
{
  Bloc(initialState: Found(), clock: clock) { bloc in
    bloc.on(.search, transformer: transformer) { event, emit in
      guard case .search(let term) = event else { return }
      try await emit.sleep(for: .seconds(1))
      emit(Found(term: term, results: [term + "1", term + "2"]))
    }
    bloc.on(.clear, cancels: [.search]) { _, emit in emit(Found()) }
  }
}

@Suite struct SearchAndClearTests {
  @Test func aClearCancelsTheRunningSearchAndNothingOvertakesIt() async {
    for _ in 0..<200 {
      await blocTest(
        build: { clock in makeFinder(clock: clock) },
        act: { context in
          let bloc = context.bloc
          let outcomes = [
            bloc.add(.search("a")), bloc.add(.clear), bloc.add(.search("b")), bloc.add(.clear),
            bloc.add(.search("c")),
          ]
          await context.advance(by: .seconds(2))
          var names: [String] = []
          for receipt in outcomes { names.append(await receipt.outcome.name) }
          #expect(names == ["cancelled", "handled", "cancelled", "handled", "handled"])
        },
        expect: [Found(term: "c", results: ["c1", "c2"])])
    }
  }

  @Test func aClearDuringAStartedSearchDiscardsItsAnswer() async {
    await blocTest(
      build: { clock in makeFinder(clock: clock) },
      act: { context in
        let search = context.bloc.add(.search("maps"))
        await context.advance(by: .milliseconds(500))  // the search is asleep, half-way
        context.bloc.add(.clear)
        await context.advance(by: .seconds(1))
        #expect(await search.outcome.name == "cancelled")
      },
      expect: [])
  }

  @Test func aRestartableSearchIsStillCancelledByTheNextSearch() async {
    await blocTest(
      build: { clock in makeFinder(clock: clock) },
      act: { context in
        let first = context.bloc.add(.search("a"))
        await context.advance(by: .milliseconds(500))
        context.bloc.add(.search("b"))
        await context.advance(by: .seconds(1))
        #expect(await first.outcome.name == "cancelled")
      },
      expect: [Found(term: "b", results: ["b1", "b2"])])
  }

  @Test func aClearCancelsAThrottledSearchWaitingForItsWindow() async {
    await blocTest(
      build: { clock in makeFinder(clock: clock, transformer: .throttle(.seconds(1))) },
      act: { context in
        context.bloc.add(.search("a"))  // runs at once, opens the window
        let waiting = context.bloc.add(.search("b"))  // waits for the window to close
        context.bloc.add(.clear)
        await context.advance(by: .seconds(3))
        #expect(await waiting.outcome.name == "cancelled")
      },
      expect: [])
  }
}

@Suite struct SynchronousHandlerTests {
  @Test func anIdleBlocRunsASynchronousHandlerBeforeAddReturns() {
    let bloc = Bloc<CounterEvent, Int>(initialState: 0) { bloc in
      bloc.on(.increment) { _, emit in emit.update { $0 += 1 } }
    }
    let receipt = bloc.add(.increment)
    #expect(receipt.resolvedOutcome?.isHandled == true)
    #expect(bloc.state == 1)
  }

  @Test func aSynchronousHandlerWaitsItsTurnBehindARunningOne() async {
    let gate = Gate()
    let bloc = Bloc<CounterEvent, Int>(initialState: 0) { bloc in
      bloc.on(.increment) { _, emit in
        await gate.wait()
        emit.update { $0 += 1 }
      }
      bloc.on(.decrement) { _, emit in emit.update { $0 *= 10 } }
    }
    let one = bloc.add(.increment)
    await eventually { gate.waiting == 1 }
    let two = bloc.add(.decrement)
    #expect(two.resolvedOutcome == nil)
    gate.open()
    _ = await one.outcome
    _ = await two.outcome
    #expect(bloc.state == 10, "(0 + 1) × 10: in order")
  }

  @Test func aFailingSynchronousHandlerFailsItsEvent() {
    let bloc = Bloc<CounterEvent, Int>(initialState: 0) { bloc in
      bloc.on(.fail) { _, _ in throw Boom() }
    }
    guard case .failed(let error) = bloc.add(.fail).resolvedOutcome else {
      Issue.record("expected a failure at once")
      return
    }
    #expect(error is Boom)
  }
}

@Suite struct UpdateTests {
  @Test func concurrentHandlersNeverLoseAnUpdate() async {
    let bloc = Bloc<CounterEvent, Int>(initialState: 0, transformer: .concurrent) { bloc in
      bloc.on(.increment) { _, emit in
        await Task.yield()
        emit.update { $0 += 1 }
      }
    }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask { for _ in 0..<250 { bloc.add(.increment) } }
      }
    }
    await bloc.settled()
    #expect(bloc.state == 1000)
  }

  @Test func aThrowingUpdateEmitsNothingAndFailsTheEvent() async {
    let bloc = Bloc<CounterEvent, Int>(initialState: 0) { bloc in
      bloc.on(.increment) { _, emit in
        try emit.update { count in
          count += 1
          throw Boom()
        }
      }
    }
    guard case .failed = await bloc.send(.increment) else {
      Issue.record("expected failed")
      return
    }
    #expect(bloc.state == 0 && bloc.sequence == 0)
  }
}

@Suite struct IndependentTests {
  @Test func anIndependentKindHasItsOwnLine() async {
    let slow = Gate()
    let firstMark = Gate()
    let bloc = Bloc<PairEvent, [Int]>(initialState: []) { bloc in
      bloc.on(.first) { event, emit in
        await slow.wait()
        emit.update { $0.append(event.number) }
      }
      bloc.on(.second, transformer: .independent) { event, emit in
        if event.number == 2 { await firstMark.wait() }
        emit.update { $0.append(event.number) }
      }
    }
    let search = bloc.add(.first(1))
    await eventually { slow.waiting == 1 }
    let two = bloc.add(.second(2))
    let three = bloc.add(.second(3))
    await eventually { firstMark.waiting == 1 }
    #expect(three.resolvedOutcome == nil, "in order within its kind")
    firstMark.open()
    _ = await three.outcome
    #expect(bloc.state == [2, 3], "beside the running event of another kind")
    slow.open()
    _ = await search.outcome
    _ = await two.outcome
    #expect(bloc.state == [2, 3, 1])
  }
}
