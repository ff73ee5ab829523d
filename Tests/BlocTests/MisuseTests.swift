import BlocCore
import Testing

/// Misuses a handler or a caller can commit: each is refused and reported, never silent.
@Suite struct MisuseTests {
  @Test func emitAfterCloseIsReportedToOnErrorAndObservers() async throws {
    let cubit = CounterCubit()
    let log = LogObserver()
    cubit.addObserver(log)
    await cubit.close()
    #expect(throws: BlocError.emitAfterClose(bloc: "CounterCubit")) { try cubit.increment() }
    #expect(log.all.contains("error \(BlocError.emitAfterClose(bloc: "CounterCubit"))"))
  }

  @Test func anUnawaitedForEachIsReportedAsMisuse() async {
    let started = Gate()
    let release = Gate()
    final class StreamingBloc: Bloc<CounterEvent, Int>, @unchecked Sendable {
      init(started: Gate, release: Gate) {
        super.init(initialState: 0)
        on(.increment) { _, emit in
          let numbers = Signalling(started: started, release: release)
          // The misuse: the loop is left running in a task the handler does not await.
          Task { try await emit.forEach(numbers, onData: { $0 }) }
          await started.wait()
        }
      }
    }
    let bloc = StreamingBloc(started: started, release: release)
    let log = LogObserver()
    bloc.addObserver(log)
    let outcome = await bloc.add(.increment).outcome
    release.open()
    guard case .failed(let error) = outcome else {
      Issue.record("expected the event to fail, got \(outcome)")
      return
    }
    #expect(String(describing: error).contains("emit.forEach"))
    #expect(log.all.contains { $0.hasPrefix("error") && $0.contains("emit.forEach") }, "\(log.all)")
    #expect(bloc.state == 0)
    await bloc.close()
  }
}

/// Yields 1, 2, 3 once `release` opens; opens `started` when iteration begins.
struct Signalling: AsyncSequence, Sendable {
  let started: Gate
  let release: Gate

  struct AsyncIterator: AsyncIteratorProtocol {
    let started: Gate
    let release: Gate
    var next = 1
    mutating func next() async -> Int? {
      started.open()
      await release.wait()
      guard next <= 3 else { return nil }
      defer { next += 1 }
      return next
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(started: started, release: release) }
}
