@_spi(Testing) import BlocCore
import Testing

@Suite struct StreamTests {
  @Test func aSubscriberGetsTheCurrentStateFirstThenDistinctChanges() async throws {
    let cubit = CounterCubit()
    try cubit.set(5)
    var iterator = cubit.states.makeAsyncIterator()
    #expect(await iterator.next() == 5)
    try cubit.set(5)
    try cubit.set(6)
    #expect(await iterator.next() == 6)
  }

  @Test func aSlowSubscriberSeesTheLatestStateWithTheGapInSequenceNumbers() async throws {
    let cubit = CounterCubit()
    var slow = cubit.updates.makeAsyncIterator()
    #expect(await slow.next() == StateUpdate(sequence: 0, state: 0))
    for value in 1...1000 { try cubit.set(value) }  // never blocks on the subscriber
    let latest = await slow.next()
    #expect(latest == StateUpdate(sequence: 1000, state: 1000))
  }

  @Test func manySubscribersEachGetEveryStateTheyWaitFor() async throws {
    let cubit = CounterCubit()
    let received = await withTaskGroup(of: [Int].self) { group in
      for _ in 0..<20 {
        group.addTask {
          var seen: [Int] = []
          for await state in cubit.states {
            seen.append(state)
            if state == 3 { break }
          }
          return seen
        }
      }
      await eventually { cubit.waiterCountForTesting >= 20 }
      for value in 1...3 {
        try? cubit.set(value)
        await eventually { cubit.waiterCountForTesting >= 20 || value == 3 }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(received.count == 20)
    #expect(received.allSatisfy { $0 == [0, 1, 2, 3] })
  }

  @Test func selectWakesOnlyWhenTheSelectedValueChanges() async throws {
    let cubit = CounterCubit()
    var parity = cubit.select { $0 % 2 == 0 }.makeAsyncIterator()
    #expect(await parity.next() == true)
    let waiting = Task {
      var iterator = parity
      return await iterator.next()
    }
    await eventually { cubit.waiterCountForTesting == 1 }
    try cubit.set(2)
    try cubit.set(4)
    #expect(cubit.waiterCountForTesting == 1, "equal selected values do not wake the subscriber")
    try cubit.set(5)
    #expect(await waiting.value == false)
  }

  @Test func streamsEndWhenTheBlocClosesAfterTheFinalState() async throws {
    let cubit = CounterCubit()
    let collected = Task {
      var all: [Int] = []
      for await state in cubit.states { all.append(state) }
      return all
    }
    await eventually { cubit.waiterCountForTesting == 1 }
    try cubit.set(1)
    await eventually { cubit.waiterCountForTesting == 1 }
    await cubit.close()
    #expect(await collected.value == [0, 1])
  }

  @Test func aCancelledSubscriberLeavesNothingBehind() async {
    let cubit = CounterCubit()
    let task = Task {
      var count = 0
      for await _ in cubit.states { count += 1 }
      return count
    }
    await eventually { cubit.waiterCountForTesting == 1 }
    task.cancel()
    #expect(await task.value == 1)
    #expect(cubit.waiterCountForTesting == 0)
  }
}

@Suite struct ListenerTests {
  @Test func aListenerGetsTheCurrentStateThenEveryChangeInOrder() throws {
    let cubit = CounterCubit()
    try cubit.set(3)
    let seen = Locked<[StateUpdate<Int>]>([])
    let token = cubit.listen { update in seen.withLock { $0.append(update) } }
    try cubit.set(4)
    try cubit.set(4)
    try cubit.set(5)
    cubit.removeListener(token)
    try cubit.set(6)
    #expect(
      seen.withLock { $0 } == [
        StateUpdate(sequence: 1, state: 3), StateUpdate(sequence: 2, state: 4),
        StateUpdate(sequence: 3, state: 5),
      ])
  }

  @Test func listenersSeeEveryChangeFromConcurrentHandlersWithIncreasingSequence() async {
    let bloc = CounterBloc()
    let sequences = Locked<[UInt64]>([])
    bloc.listen { update in sequences.withLock { $0.append(update.sequence) } }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 { group.addTask { for _ in 0..<100 { await bloc.send(.increment) } } }
    }
    #expect(sequences.withLock { $0 } == Array(0...400))
  }

  @Test func listenersEndWhenTheBlocCloses() async throws {
    let cubit = CounterCubit()
    let count = Locked(0)
    cubit.listen { _ in count.withLock { $0 += 1 } }
    await cubit.close()
    cubit.listen { _ in count.withLock { $0 += 100 } }
    #expect(count.withLock { $0 } == 1, "no listener is added to a closed bloc")
  }
}
