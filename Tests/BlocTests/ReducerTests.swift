import BlocCore
import BlocTest
import Testing

/// A list of amounts: synchronous events, so its bloc is one reducer.
enum ListEvent: BlocEvent, Hashable {
  case add(Int), undoLast, slow

  /// Kinds are only needed beside `on(kind)` handlers: `.slow` has one of its own.
  enum Kind { case add, undoLast, slow }
  var kind: Kind {
    switch self {
    case .add: .add
    case .undoLast: .undoLast
    case .slow: .slow
    }
  }
}

struct ListRefused: Error, Equatable {}

@Suite struct ReducerTests {
  static func reduce(_ total: [Int], _ event: ListEvent) throws(ListRefused) -> [Int] {
    switch event {
    case .add(let amount):
      guard amount > 0 else { throw ListRefused() }
      return total + [amount]
    case .undoLast: return total.dropLast()
    case .slow: return total
    }
  }

  @Test func aReducerHandlesEachEventInlineOnAnIdleBloc() async {
    let tally = Bloc<ListEvent, [Int]>(initialState: []) { total, event in
      try Self.reduce(total, event)
    }
    let receipt = tally.add(.add(2))
    // Handled before `add` returned, in the caller's thread.
    #expect(tally.state == [2])
    #expect(await receipt.outcome.isHandled)
    tally.add(.add(3))
    tally.add(.undoLast)
    #expect(tally.state == [2])
    await tally.close()
  }

  @Test func aRefusalFailsTheEventAndChangesNothing() async {
    let tally = Bloc<ListEvent, [Int]>(initialState: [1]) { total, event in
      try Self.reduce(total, event)
    }
    let outcome = await tally.send(.add(0))
    guard case .failed(let error) = outcome else {
      Issue.record("expected a failure, got \(outcome)")
      return
    }
    #expect(error as? ListRefused == ListRefused())
    #expect(tally.state == [1])
    #expect(tally.sequence == 0)
    await tally.close()
  }

  @Test func handlersOfTheirOwnKindAndTheReducerKeepTheOrderOfArrival() async {
    let gate = AsyncStream<Void>.makeStream()
    let tally = Bloc<ListEvent, [Int]>(initialState: []) { bloc in
      bloc.on(.slow) { _, emit in
        for await _ in gate.stream { break }
        emit.update { $0.append(0) }
      }
      bloc.reduce { total, event in try Self.reduce(total, event) }
    }
    let slow = tally.add(.slow)
    let added = tally.add(.add(5))
    // The reducer's event waits for the slow one before it.
    #expect(tally.state == [])
    gate.continuation.yield()
    #expect(await slow.outcome.isHandled)
    #expect(await added.outcome.isHandled)
    #expect(tally.state == [0, 5])
    await tally.close()
  }
}
