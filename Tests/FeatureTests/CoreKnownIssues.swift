import BlocCore
import Counter
import Settings
import Testing

/// Core behaviour the features work around, kept here so that a core fix shows up as a
/// known issue that no longer reproduces.
@Suite struct CoreKnownIssues {
  /// `Bloc.settled()` can return while events still wait in a persisted bloc's sequential lane.
  /// In `Bloc.execute`, `persister.whenStored` may run its callback at once (or on the write
  /// queue) and `workEnded()` uncounts the job before the lane's runner has popped and counted
  /// the next queued job in `ended(false)`: `activeWork` touches 0 with work queued, so
  /// `isIdle` holds. `blocTest` then closes the bloc early and queued events end cancelled.
  /// The feature tests await the last receipt instead. A fix: count the wait for storage as
  /// its own unit of work before `whenStored` and let `execute` return true. Seen in about
  /// half of this test's runs (20 tries each) on a loaded 2-core machine.
  @Test func settledCanReturnBeforeQueuedEventsOfAPersistedBlocRun() async {
    await withKnownIssue(
      "settled() returns early for persisted sequential lanes", isIntermittent: true
    ) {
      var countAtSettle: Int?
      for _ in 0..<20 where countAtSettle == nil {
        let counter = CounterBloc(settings: FixedSettings(), storage: InMemoryStorage())
        for _ in 0..<300 { counter.add(.increment) }
        await counter.settled()
        if counter.state.count != 300 { countAtSettle = counter.state.count }
        await counter.close()
      }
      #expect(countAtSettle == nil, "settled() returned with events still queued")
    }
  }
}
