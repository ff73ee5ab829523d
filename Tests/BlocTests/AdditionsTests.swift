import BlocCore
import BlocTest
import Testing

@Suite struct AddErrorTests {
  @Test func addErrorReachesOnErrorAndObserversOfABlocAndACubit() async {
    let bloc = CounterBloc()
    let cubit = CounterCubit()
    let log = LogObserver()
    bloc.addObserver(log)
    cubit.addObserver(log)
    bloc.addError(Boom())
    cubit.addError(Boom())
    #expect(log.all == ["error Boom()", "error Boom()"])
    #expect(bloc.state == 0 && cubit.state == 0)
  }

  @Test func aBlocTestSeesAddedErrors() async {
    await blocTest(
      build: { _ in CounterBloc() }, act: { $0.bloc.addError(Boom()) }, expect: [],
      errors: [.equals(Boom())])
  }
}

@Suite struct ShouldReplayTests {
  /// Odd counts are transient: undo and redo step over them.
  func evenOnly() -> HistoryLimit {
    .limit(10).replaying { (count: Int) in count.isMultiple(of: 2) }
  }

  @Test func undoAndRedoStepOverStatesTheFilterRefuses() throws {
    let cubit = CounterCubit(history: evenOnly())
    for value in 1...4 { try cubit.set(value) }  // 0 1 2 3 4
    #expect(cubit.undo())
    #expect(cubit.state == 2, "3 is stepped over")
    #expect(cubit.undo())
    #expect(cubit.state == 0)
    #expect(!cubit.canUndo)
    #expect(cubit.redo())
    #expect(cubit.state == 2, "1 is stepped over")
    #expect(cubit.redo())
    #expect(cubit.state == 4)
    #expect(!cubit.canRedo)
  }

  @Test func nothingToUndoWhenNoEarlierStateReplays() throws {
    let cubit = CounterCubit(history: .limit(10).replaying { (count: Int) in count > 5 })
    try cubit.set(1)
    try cubit.set(2)
    #expect(!cubit.canUndo)
    #expect(!cubit.undo())
    #expect(cubit.state == 2)
  }
}

@Suite struct HashableTests {
  @Test func changesAndTransitionsGoInSets() {
    let changes: Set = [Change(current: 0, next: 1), Change(current: 0, next: 1)]
    #expect(changes.count == 1)
    let transitions: Set = [
      Transition(current: 0, event: CounterEvent.increment, next: 1),
      Transition(current: 1, event: CounterEvent.increment, next: 2),
    ]
    #expect(transitions.count == 2)
  }
}
