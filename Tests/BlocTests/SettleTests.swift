import BlocCore
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
