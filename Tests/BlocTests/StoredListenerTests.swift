import BlocCore
import Testing

/// A persisted bloc's listeners hear its stored states once each, in order, also when changes
/// come while a write is in flight: the write's end tells them before the next write is taken.
@Suite struct StoredListenerTests {
  @Test func listenersHearStoredStatesInOrderWhileChangesComeDuringAWrite() async throws {
    let storage = FaultyStorage()
    let bloc = TallyBloc(storage: storage)
    let seen = Locked<[Int]>([])
    bloc.listen { update in seen.withLock { $0.append(update.state.count) } }
    storage.hold()
    var receipts = [bloc.add(.increment)]
    await eventually { bloc.state.count == 1 }
    // Handled while the first write is held: the newest is pending when it ends.
    for _ in 0..<9 { receipts.append(bloc.add(.increment)) }
    await eventually { bloc.state.count == 10 }
    #expect(bloc.storedSnapshot.state.count == 0, "nothing stored yet, nothing shown")
    storage.release()
    for receipt in receipts { #expect(await receipt.outcome.isHandled) }
    #expect(storage.storedCount == 10)
    #expect(bloc.storedSnapshot.state.count == 10)
    let heard = seen.withLock { $0 }
    #expect(heard.first == 0, "the stored state when listening began")
    #expect(heard.last == 10, "told before the last change's waiter is released")
    #expect(zip(heard, heard.dropFirst()).allSatisfy { $0 < $1 }, "in order, each once: \(heard)")
    await bloc.close()
  }
}
