import BlocCore
import Testing

@Suite struct BlocTests {
  @Test func handlersTurnEventsIntoStates() async {
    let bloc = CounterBloc()
    #expect(await bloc.add(.increment).outcome.isHandled)
    await bloc.send(.increment)
    await bloc.send(.decrement)
    #expect(bloc.state == 1)
  }

  @Test func aHandlerMayEmitSeveralStates() async {
    final class Steps: Bloc<CounterEvent, Int>, @unchecked Sendable {
      init() {
        super.init(initialState: 0)
        on(.increment) { _, emit in
          for value in 1...3 { emit(value) }
        }
      }
    }
    let bloc = Steps()
    let log = LogObserver()
    bloc.addObserver(log)
    await bloc.send(.increment)
    #expect(
      log.all.filter { $0.hasPrefix("change") } == ["change 0->1", "change 1->2", "change 2->3"])
  }

  @Test func aHandlerCanFollowAnAsyncSequence() async {
    final class Ticker: Bloc<CounterEvent, Int>, @unchecked Sendable {
      init() {
        super.init(initialState: 0)
        on(.increment) { _, emit in
          let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
          for value in [5, 6, 7] { continuation.yield(value) }
          continuation.finish()
          try await emit.forEach(stream) { $0 * 10 }
        }
      }
    }
    let bloc = Ticker()
    let log = LogObserver()
    bloc.addObserver(log)
    #expect(await bloc.add(.increment).outcome.isHandled)
    #expect(
      log.all.filter { $0.hasPrefix("change") } == [
        "change 0->50", "change 50->60", "change 60->70",
      ])
  }

  @Test func anEventWithoutHandlerFailsNamingTheEvent() async {
    let bloc = CounterBloc()
    let log = LogObserver()
    bloc.addObserver(log)
    let outcome = await bloc.add(.unhandled).outcome
    guard case .failed(let error) = outcome else {
      Issue.record("expected failure, got \(outcome)")
      return
    }
    #expect(error as? BlocError == .unhandledEvent(bloc: "CounterBloc", event: "unhandled"))
    #expect(String(describing: error).contains("no handler for event unhandled"))
    #expect(String(describing: error).contains("on("))
    #expect(log.all.contains { $0.hasPrefix("error") })
  }

  @Test func aFailingHandlerReportsItsEventAndTheBlocKeepsWorking() async {
    let bloc = CounterBloc()
    let log = LogObserver()
    bloc.addObserver(log)
    let outcome = await bloc.add(.fail).outcome
    guard case .failed(let error) = outcome else {
      Issue.record("expected failure, got \(outcome)")
      return
    }
    #expect(error is Boom)
    #expect(log.all.contains("error handling fail failed: Boom()"))
    #expect(await bloc.add(.increment).outcome.isHandled)
    #expect(bloc.state == 1)
  }

  @Test func emitsAfterTheHandlerFinishedAreDroppedAndReported() async {
    final class Leaky: Bloc<CounterEvent, Int>, @unchecked Sendable {
      let escaped = EmitterBox()
      init() {
        super.init(initialState: 0)
        on(.increment) { [escaped] _, emit in escaped.set(emit) }
      }
    }
    let bloc = Leaky()
    let log = LogObserver()
    bloc.addObserver(log)
    await bloc.send(.increment)
    bloc.escaped.emitter?(42)
    #expect(bloc.state == 0)
    #expect(log.all.contains { $0.contains("emitted after it finished") })
  }

  @Test func addAfterCloseFails() async {
    let bloc = CounterBloc()
    await bloc.close()
    let outcome = await bloc.add(.increment).outcome
    guard case .failed(let error) = outcome else {
      Issue.record("expected failure, got \(outcome)")
      return
    }
    #expect(error as? BlocError == .addAfterClose(bloc: "CounterBloc", event: "increment"))
  }

  @Test func closeCancelsRunningHandlersAndWaitsForThem() async {
    let gate = Gate()
    let bloc = GatedBloc(transformer: .concurrent, gates: [1: gate])
    let receipt = bloc.add(.value(1))
    await eventually { gate.waiting == 1 }
    let closing = Task { await bloc.close() }
    await eventually { bloc.isClosed }
    gate.open()
    await closing.value
    guard case .cancelled = await receipt.outcome else {
      Issue.record("expected cancelled")
      return
    }
    #expect(bloc.state == 0, "the cancelled handler's emit is dropped")
  }

  @Test func hooksRunInOrder() async {
    let bloc = CounterBloc()
    let log = LogObserver()
    bloc.addObserver(log)
    await bloc.send(.increment)
    await bloc.close()
    #expect(
      log.all == [
        "event increment", "transition 0-increment->1", "change 0->1", "done increment handled",
        "close CounterBloc",
      ])
  }

  @Test func globalObserversSeeEveryBlocIncludingCreation() async {
    let log = LogObserver()
    let token = BlocObservers.add(log)
    defer { BlocObservers.remove(token) }
    let bloc = CounterBloc()
    await bloc.send(.increment)
    await bloc.close()
    let mine = log.all
    #expect(mine.contains("create CounterBloc"))
    #expect(mine.contains("transition 0-increment->1"))
    #expect(mine.contains("close CounterBloc"))
  }

  @Test func observersAreCalledOnlyForTheHooksTheyWant() async {
    let closes = LogObserver(hooks: .close)
    let token = BlocObservers.add(closes)
    defer { BlocObservers.remove(token) }
    let bloc = CounterBloc()
    let changesAndErrors = LogObserver(hooks: [.change, .error])
    let everything = LogObserver()
    bloc.addObserver(changesAndErrors)
    bloc.addObserver(everything)
    await bloc.send(.increment)
    bloc.addError(Boom())
    await bloc.close()
    #expect(changesAndErrors.all == ["change 0->1", "error Boom()"])
    #expect(everything.all.count == 6)
    #expect(closes.all.filter { !$0.hasPrefix("close") }.isEmpty)
    #expect(closes.all.contains("close CounterBloc"))
  }
}

final class EmitterBox: Sendable {
  private let stored = Locked<Emitter<Int>?>(nil)
  func set(_ emitter: Emitter<Int>) { stored.withLock { $0 = emitter } }
  var emitter: Emitter<Int>? { stored.withLock { $0 } }
}
