import BlocCore
import BlocTest
import Testing

/// What `build` does, recorded as bloc_test records it: its synchronous states are not, the
/// events it adds are handled after `seed`, and work it started that lands later is.
@Suite struct BuildTests {
  /// bloc_test's InstantEmitCubit: emits 1 from its initializer.
  final class InstantEmitCubit: Cubit<Int>, @unchecked Sendable {  // state behind locks
    init() {
      super.init(initialState: 0)
      try? emit(1)
    }

    func increment() throws { try emit(state + 1) }
  }

  /// Adds an increment from its initializer.
  final class InstantAddBloc: Bloc<Step, Int>, @unchecked Sendable {  // state behind locks
    init() {
      super.init(initialState: 0)
      on(.up) { _, emit in emit(emit.state + 1) }
      add(.up)
    }
  }

  /// Starts work in its initializer that emits once `release` opens, then opens `emitted`.
  final class LateEmitCubit: Cubit<Int>, @unchecked Sendable {  // state behind locks
    init(release: Gate, emitted: Gate) {
      super.init(initialState: 0)
      Task {
        await release.wait()
        try? self.emit(7)
        emitted.open()
      }
    }
  }

  @Test func aStateEmittedWhileBuildingIsNotRecorded() async {
    await blocTest(build: { _ in InstantEmitCubit() }, expect: [])
  }

  @Test func onlyTheStatesAfterBuildingAreRecorded() async {
    await blocTest(
      build: { _ in InstantEmitCubit() }, act: { try $0.bloc.increment() }, expect: [2])
  }

  @Test func anEventAddedWhileBuildingIsHandledAfterTheSeed() async {
    await blocTest(
      build: { _ in InstantAddBloc() }, seed: 10, act: { $0.bloc.add(.up) }, expect: [11, 12])
  }

  @Test func anEventAddedWhileBuildingIsHandledWithoutASeed() async {
    await blocTest(build: { _ in InstantAddBloc() }, expect: [1])
  }

  @Test func workStartedInBuildThatLandsAfterBuildIsRecorded() async {
    let release = Gate()
    let emitted = Gate()
    await blocTest(
      build: { _ in LateEmitCubit(release: release, emitted: emitted) },
      act: { _ in
        release.open()
        await emitted.wait()
      }, expect: [7])
  }

  @Test func workStartedInBuildThatLandsBeforeBuildReturnsIsRecorded() async {
    let release = Gate()
    let emitted = Gate()
    await blocTest(
      build: { _ in
        let cubit = LateEmitCubit(release: release, emitted: emitted)
        release.open()
        await emitted.wait()  // the other task's emit lands while build still runs
        return cubit
      }, expect: [7])
  }

  @Test func aSendThatBuildAwaitsIsHandledAtOnceAfterTheEventsAddedBeforeIt() async {
    await blocTest(
      build: { _ in
        let bloc = InstantAddBloc()
        #expect(await bloc.send(.up).isHandled)
        #expect(bloc.state == 2, "the event added in init, then the one sent")
        return bloc
      }, expect: [], verify: { #expect($0.state == 2) })
  }

  @Test func closingABlocThatStillHoldsEventsCancelsThem() async {
    await blocTest(
      build: { _ -> InstantAddBloc in
        let bloc = InstantAddBloc()
        let held = bloc.add(.up)
        await bloc.close()
        let outcome = await held.outcome
        #expect(outcome.name == "cancelled", "\(outcome)")
        return bloc
      }, expect: [], verify: { #expect($0.state == 0) })
  }
}

/// Opens once; waiters resume then (or at once if already open).
final class Gate: Sendable {
  private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

  func wait() async {
    await withCheckedContinuation { continuation in
      let ready = state.withLock { state -> Bool in
        if state.open { return true }
        state.waiters.append(continuation)
        return false
      }
      if ready { continuation.resume() }
    }
  }

  func open() {
    let waiters = state.withLock { state in
      state.open = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}
