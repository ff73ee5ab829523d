import BlocCore
import BlocTest
import Testing

@Suite struct SettleTests {
  /// A persisted bloc concludes events after their state is stored; settled() must still wait
  /// for every queued event (it once saw zero work between a storage callback and the next pop).
  @Test func settledWaitsForEveryQueuedEventOfAPersistedBloc() async {
    for _ in 0..<20 {
      let bloc = TallyBloc(storage: InMemoryStorage())
      for _ in 0..<300 { bloc.add(.increment) }
      await bloc.settled()
      #expect(bloc.state.count == 300)
      await bloc.close()
    }
  }
}

@Suite struct SettleWithClockTests {
  final class Sleepy: Bloc<CounterEvent, Int>, @unchecked Sendable {
    init(clock: any Clock<Duration>) {
      super.init(initialState: 0, clock: clock)
      on(.increment) { _, emit in
        try await emit.sleep(for: .seconds(1))
        emit(emit.state + 1)
      }
    }
  }

  /// settled() once counted every queued job behind a sleeping handler as work in progress, so
  /// with two or more queued it never returned.
  @Test(.timeLimit(.minutes(1)))
  func settledReturnsWhileASequentialHandlerSleepsWithEventsQueued() async {
    await blocTest(
      build: { clock in Sleepy(clock: clock) },
      act: { context in
        for _ in 0..<4 { context.bloc.add(.increment) }
        await context.advance(by: .seconds(4))
      },
      expect: [1, 2, 3, 4])
  }
}
