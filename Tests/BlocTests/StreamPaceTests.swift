@_spi(Testing) import BlocCore
import Testing

/// A subscriber looks for the next state before parking only while its bloc is busy
/// (`BlocBase.newerPublished`): whichever way it waits, it must see the bloc's latest state
/// as the bloc goes from bursts to changes now and then and back.
@Suite struct StreamPaceTests {
  @Test func aSubscriberSeesTheLatestStateInBurstsAndInChangesNowAndThen() async throws {
    let cubit = CounterCubit()
    let (seen, report) = AsyncStream.makeStream(of: UInt64.self)
    let subscriber = Task {
      for await update in cubit.updates { report.yield(update.sequence) }
      report.finish()
    }
    var sequences = seen.makeAsyncIterator()
    var last: UInt64 = 0
    // Waits until the subscriber saw `target`; what it saw on the way only ever grows.
    func reach(_ target: UInt64, _ sequences: inout AsyncStream<UInt64>.Iterator) async -> Bool {
      while let sequence = await sequences.next() {
        #expect(sequence >= last)
        last = sequence
        if sequence == target { return true }
      }
      return false
    }
    #expect(await reach(0, &sequences))
    var value = 0
    for _ in 0..<3 {
      for _ in 0..<5_000 {
        value += 1
        try cubit.set(value)
      }
      #expect(await reach(UInt64(value), &sequences))
      // Now and then: the subscriber has caught up and parks before each change.
      for _ in 0..<20 {
        value += 1
        try cubit.set(value)
        #expect(await reach(UInt64(value), &sequences))
      }
    }
    await cubit.close()
    await subscriber.value
    #expect(await sequences.next() == nil)
  }
}
