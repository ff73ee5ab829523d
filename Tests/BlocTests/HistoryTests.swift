import BlocCore
import Testing

@Suite struct HistoryTests {
  @Test func undoAndRedoWalkThroughStates() throws {
    let cubit = CounterCubit(history: .limit(10))
    #expect(!cubit.canUndo && !cubit.canRedo)
    try cubit.set(1)
    try cubit.set(2)
    #expect(cubit.undo())
    #expect(cubit.state == 1)
    #expect(cubit.canRedo)
    #expect(cubit.redo())
    #expect(cubit.state == 2)
    #expect(!cubit.redo())
  }

  @Test func anEqualStateIsNeverRecordedAndKeepsRedo() throws {
    let cubit = CounterCubit(history: .limit(10))
    try cubit.set(1)
    try cubit.set(2)
    #expect(cubit.undo())
    try cubit.set(1)  // equal to the current state: not a change
    #expect(cubit.canRedo, "an equal emit must not wipe the redo stack")
    #expect(cubit.undo())
    #expect(cubit.state == 0)
    #expect(!cubit.canUndo)
  }

  @Test func aNewChangeClearsRedo() throws {
    let cubit = CounterCubit(history: .limit(10))
    try cubit.set(1)
    #expect(cubit.undo())
    try cubit.set(7)
    #expect(!cubit.canRedo)
  }

  @Test func theLimitForgetsTheOldestSteps() throws {
    let cubit = CounterCubit(history: .limit(2))
    for value in 1...5 { try cubit.set(value) }
    #expect(cubit.undo() && cubit.undo())
    #expect(cubit.state == 3)
    #expect(!cubit.undo())
  }

  @Test func theLimitHoldsAcrossManyChangesUndoesAndRedoes() throws {
    // Past the point where forgotten steps are dropped in one move (the stack keeps up to the
    // limit of them in front), undo, redo and new changes still see exactly the last `limit`.
    let cubit = CounterCubit(history: .limit(3))
    for value in 1...1_000 { try cubit.set(value) }
    #expect(cubit.undo() && cubit.undo() && cubit.undo())
    #expect(cubit.state == 997)
    #expect(!cubit.undo())
    #expect(cubit.redo() && cubit.redo())
    #expect(cubit.state == 999)
    for value in 2_000...2_040 { try cubit.set(value) }
    #expect(!cubit.canRedo, "a recorded change clears redo")
    #expect(cubit.undo() && cubit.undo() && cubit.undo())
    #expect(cubit.state == 2_037)
    #expect(!cubit.undo())
  }

  @Test func clearHistoryForgetsEverything() throws {
    let cubit = CounterCubit(history: .limit(5))
    try cubit.set(1)
    try cubit.set(2)
    #expect(cubit.undo())
    cubit.clearHistory()
    #expect(!cubit.canUndo && !cubit.canRedo)
  }

  @Test func withoutHistoryUndoDoesNothing() throws {
    let cubit = CounterCubit()
    try cubit.set(1)
    #expect(!cubit.undo())
    #expect(cubit.state == 1)
  }

  @Test func undoIsAChangeSeenByHooksAndSubscribers() async throws {
    let bloc = CounterBloc(history: .limit(3))
    let log = LogObserver()
    bloc.addObserver(log)
    await bloc.send(.increment)
    #expect(bloc.undo())
    #expect(log.all.suffix(1) == ["change 1->0"])
    #expect(bloc.sequence == 2)
  }
}

@Suite struct RedoTests {
  /// Settled: a change that is recorded clears redo; an event that fails or changes nothing
  /// does not.
  @Test func onlyARecordedChangeClearsRedo() async {
    let bloc = Bloc<CounterEvent, Int>(initialState: 0, history: .limit(10)) { bloc in
      bloc.on(.increment) { _, emit in emit.update { $0 += 1 } }
      bloc.on(.decrement) { _, emit in emit(emit.state) }  // no change
      bloc.on(.fail) { _, _ in throw Boom() }
    }
    await bloc.send(.increment)
    await bloc.send(.increment)
    #expect(bloc.undo())
    #expect(bloc.canRedo)
    _ = await bloc.send(.fail)
    #expect(bloc.canRedo, "a failed event changes nothing, so redo stays")
    _ = await bloc.send(.decrement)
    #expect(bloc.canRedo, "an event that changes nothing leaves redo too")
    await bloc.send(.increment)
    #expect(!bloc.canRedo, "a recorded change clears redo")
    #expect(bloc.state == 2)
  }
}
