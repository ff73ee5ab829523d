import BlocCore
import BlocTest
import Testing

enum Step: BlocEvent, Hashable { case up, fail }
struct Refused: Error, Equatable {}

final class StepBloc: Bloc<Step, Int>, @unchecked Sendable {
  init(clock: any Clock<Duration> = ContinuousClock()) {
    super.init(initialState: 0, clock: clock)
    on(.up) { _, emit in emit(emit.state + 1) }
    on(.fail) { _, _ in throw Refused() }
  }
}

final class Delayed: Bloc<Step, Int>, @unchecked Sendable {
  init(clock: any Clock<Duration>) {
    super.init(initialState: 0, clock: clock)
    on(.up) { _, emit in
      try await emit.sleep(for: .seconds(5))
      emit(emit.state + 1)
    }
  }
}

@Suite struct HarnessPasses {
  @Test func matchingStatesPass() async {
    let report = await blocTest(
      build: { _ in StepBloc() }, act: { $0.bloc.add(.up) }, expect: [1])
    #expect(report.passed)
  }

  @Test func seedIsNotRecordedAndSkipDropsStates() async {
    await blocTest(
      build: { _ in StepBloc() }, seed: 10,
      act: { context in
        context.bloc.add(.up)
        context.bloc.add(.up)
      }, skip: 1, expect: [12])
  }

  @Test func expectedErrorsMatchThroughTheHandlerFailure() async {
    await blocTest(
      build: { _ in StepBloc() }, act: { $0.bloc.add(.fail) }, expect: [],
      errors: [.equals(Refused())])
  }

  @Test func verifyRunsAfterClose() async {
    await blocTest(
      build: { _ in StepBloc() }, act: { $0.bloc.add(.up) }, expect: [1],
      verify: { bloc in #expect(bloc.isClosed && bloc.state == 1) })
  }

  @Test func virtualTimeDrivesSleepsInHandlers() async {
    await blocTest(
      build: { clock in Delayed(clock: clock) },
      act: { context in
        context.bloc.add(.up)
        await context.advance(by: .seconds(4))
        #expect(context.bloc.state == 0)
        await context.advance(by: .seconds(1))
        #expect(context.bloc.state == 1)
      }, expect: [1])
  }

  @Test func cubitsWork() async {
    final class Toggle: Cubit<Bool>, @unchecked Sendable {
      init() { super.init(initialState: false) }
      func flip() throws { try emit(!state) }
    }
    await blocTest(
      build: { _ in Toggle() },
      act: { context in
        try context.bloc.flip()
        try context.bloc.flip()
      }, expect: [true, false])
  }
}

/// The harness must fail when it should: each of these reports a failure.
@Suite struct HarnessFails {
  @Test func aMissingStateFailsWithADiff() async {
    let report = await runBlocTest(
      build: { _ in StepBloc() }, act: { $0.bloc.add(.up) }, expect: [1, 2])
    #expect(!report.passed)
    #expect(report.description.contains("expected 2, got 1"))
    #expect(report.description.contains("✗ [1] expected: 2"))
    #expect(report.description.contains("actual:   (missing)"))
  }

  @Test func anExtraStateFails() async {
    let report = await runBlocTest(
      build: { _ in StepBloc() },
      act: { context in
        context.bloc.add(.up)
        context.bloc.add(.up)
      }, expect: [1])
    #expect(!report.passed)
    #expect(report.description.contains("(nothing: an extra state)"))
  }

  @Test func aWrongStateFails() async {
    let report = await runBlocTest(
      build: { _ in StepBloc() }, act: { $0.bloc.add(.up) }, expect: [2])
    #expect(report.failures.count == 1)
  }

  @Test func anUnexpectedErrorFails() async {
    let report = await runBlocTest(
      build: { _ in StepBloc() }, act: { $0.bloc.add(.fail) }, expect: [])
    #expect(report.description.contains("unexpected error [0]"))
  }

  @Test func aMissingExpectedErrorFails() async {
    let report = await runBlocTest(
      build: { _ in StepBloc() }, act: { $0.bloc.add(.up) }, expect: [1],
      errors: [.type(Refused.self)])
    #expect(report.description.contains("no error was reported"))
  }

  @Test func workStillWaitingOnTheClockIsNotCountedAsDone() async {
    let report = await runBlocTest(
      build: { clock in Delayed(clock: clock) }, act: { $0.bloc.add(.up) }, expect: [1])
    #expect(!report.passed, "without advancing the clock the state never comes")
  }

  @Test func aThrowingVerifyFails() async {
    let report = await runBlocTest(
      build: { _ in StepBloc() }, expect: [], verify: { _ in throw Refused() })
    #expect(report.description.contains("verify threw"))
  }

  /// The mismatch is deliberate: `withKnownIssue` passes only if `blocTest` records an issue
  /// (a harness that stayed silent here would fail this test).
  @Test func blocTestRecordsAnIssue() async {
    await withKnownIssue("expect: [3] against a state of 1 must be reported") {
      await blocTest(build: { _ in StepBloc() }, act: { $0.bloc.add(.up) }, expect: [3])
    }
  }
}

@Suite struct TestClockTests {
  @Test func sleepersWakeOnlyWhenTimeReachesTheirDeadline() async throws {
    let clock = TestClock()
    let woke = Task { try await clock.sleep(for: .seconds(2)) }
    while clock.sleeperCount == 0 { await Task.yield() }
    clock.advance(by: .seconds(1))
    #expect(clock.sleeperCount == 1)
    clock.advance(by: .seconds(1))
    try await woke.value
    #expect(clock.now.offset == .seconds(2))
  }

  @Test func cancellingASleeperThrows() async {
    let clock = TestClock()
    let task = Task { try await clock.sleep(for: .seconds(1)) }
    while clock.sleeperCount == 0 { await Task.yield() }
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(clock.sleeperCount == 0)
  }
}

@Suite struct HarnessRecordsFromCreation {
  /// The recorder was once installed after `build` returned, while the event added in `build`
  /// could already be handled on another thread: its state went missing under load.
  @Test func statesOfEventsAddedDuringBuildAreNeverMissed() async {
    let failures = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<4 {
        group.addTask {
          var failed = 0
          for _ in 0..<300 {
            let report = await runBlocTest(
              build: { _ in
                let bloc = StepBloc()
                bloc.add(.up)
                return bloc
              }, expect: [1])
            if !report.passed { failed += 1 }
          }
          return failed
        }
      }
      return await group.reduce(0, +)
    }
    #expect(failures == 0)
  }

  @Test func onlyTheBuiltBlocIsRecorded() async {
    await blocTest(
      build: { _ in
        let other = StepBloc()
        await other.send(.up)
        await other.close()
        let bloc = StepBloc()
        bloc.add(.up)
        return bloc
      }, expect: [1])
  }

  @Test func aBlocMadeBeforeBuildIsStillRecorded() async {
    let made = StepBloc()
    await blocTest(build: { _ in made }, act: { $0.bloc.add(.up) }, expect: [1])
  }
}
