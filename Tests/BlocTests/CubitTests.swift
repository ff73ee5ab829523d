import BlocCore
import Testing

@Suite struct CubitTests {
  @Test func emitChangesStateSynchronously() throws {
    let cubit = CounterCubit()
    try cubit.increment()
    try cubit.increment()
    #expect(cubit.state == 2)
    #expect(cubit.sequence == 2)
  }

  @Test func equalEmitIsNotAChange() async throws {
    let cubit = CounterCubit()
    let log = LogObserver()
    cubit.addObserver(log)
    try cubit.set(0)
    try cubit.set(1)
    try cubit.set(1)
    #expect(log.all == ["change 0->1"])
    #expect(cubit.sequence == 1)
  }

  @Test func emitAfterCloseThrowsACatchableError() async throws {
    let cubit = CounterCubit()
    await cubit.close()
    #expect(throws: BlocError.emitAfterClose(bloc: "CounterCubit")) { try cubit.increment() }
    #expect(cubit.state == 0)
    let message = String(describing: BlocError.emitAfterClose(bloc: "CounterCubit"))
    #expect(message.contains("cannot emit after close()"))
  }

  @Test func closeIsIdempotentAndToldOnce() async {
    let cubit = CounterCubit()
    let log = LogObserver()
    cubit.addObserver(log)
    await cubit.close()
    await cubit.close()
    #expect(log.all == ["close CounterCubit"])
    #expect(cubit.isClosed)
  }
}
