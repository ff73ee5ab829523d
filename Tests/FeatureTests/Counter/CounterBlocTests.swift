import BlocCore
import BlocTest
import Counter
import Foundation
import Settings
import StatedFeatures
import Testing

@Suite struct CounterBlocTests {
  @Test func stepsBySettingsStep() async {
    await blocTest(
      build: { _ in
        CounterBloc(rules: FixedCounterRules(CounterRules(step: 3)), storage: InMemoryStorage())
      },
      act: { context in
        context.bloc.add(.increment)
        context.bloc.add(.increment)
        context.bloc.add(.decrement)
        context.bloc.add(.set(-4))
        context.bloc.add(.reset)
      },
      expect: [3, 6, 3, -4, 0].map { CounterState(count: $0) })
  }

  @Test func goingPastABoundIsRefusedAndTheCountKept() async {
    let rules = FixedCounterRules(CounterRules(step: 2, minimum: -5, maximum: 10))
    await blocTest(
      build: { _ in CounterBloc(rules: rules, storage: InMemoryStorage()) },
      act: { context in
        await context.bloc.send(.set(9))
        #expect(failure(await context.bloc.send(.increment)) == "count would exceed the maximum 10")
        #expect(context.bloc.state.count == 9)
        #expect(failure(await context.bloc.send(.set(-6))) == "count would go below the minimum -5")
        await context.bloc.send(.set(-4))
        #expect(
          failure(await context.bloc.send(.decrement)) == "count would go below the minimum -5")
        #expect(context.bloc.state.count == -4)
      },
      expect: [9, -4].map { CounterState(count: $0) },
      errors: [
        .equals(CounterError.aboveMaximum(10)), .equals(CounterError.belowMinimum(-5)),
        .equals(CounterError.belowMinimum(-5)),
      ])
  }

  @Test func aSettingsChangeAppliesToTheNextEvent() async {
    let settings = SettingsBloc(storage: InMemoryStorage())
    await blocTest(
      build: { _ in
        CounterBloc(rules: CounterRulesFromSettings(settings), storage: InMemoryStorage())
      },
      act: { context in
        await context.bloc.send(.increment)
        await settings.send(.set(.counterStep, 5))
        await context.bloc.send(.increment)
        await settings.send(.set(.counterMaximum, 8))
        #expect(failure(await context.bloc.send(.increment)) == "count would exceed the maximum 8")
        await settings.send(.set(.counterMinimum, 3))
        await context.bloc.send(.reset)
      },
      expect: [1, 6, 3].map { CounterState(count: $0) },
      errors: [.equals(CounterError.aboveMaximum(8))])
    await settings.close()
  }

  @Test func concurrentIncrementsAndDecrementsNeverLoseAnUpdate() async {
    let counter = CounterBloc(storage: InMemoryStorage())
    let receipts = await withTaskGroup(of: [EventReceipt].self) { group in
      for task in 0..<8 {
        group.addTask {
          (0..<100).map { _ in counter.add(task.isMultiple(of: 2) ? .increment : .decrement) }
            + (0..<50).map { _ in counter.add(.increment) }
        }
      }
      return await group.reduce(into: []) { $0 += $1 }
    }
    // settled() covers every queued event, also while a persisted bloc's writes complete.
    await counter.settled()
    #expect(counter.state.count == 400)
    #expect(counter.sequence == 1200, "every event changed the count once")
    for receipt in receipts { #expect(receipt.resolvedOutcome?.isHandled == true) }
    await counter.close()
  }

  @Test func eventsAreHandledOneAtATimeInTheOrderAdded() async {
    await blocTest(
      build: { _ in CounterBloc(storage: InMemoryStorage()) },
      act: { context in
        for value in 1...300 {
          context.bloc.add(value.isMultiple(of: 3) ? .increment : .set(value))
        }
      },
      expect: (1...300).map { CounterState(count: $0) })
  }

  @Test func undoAndRedo() async {
    await blocTest(
      build: { _ in CounterBloc(storage: InMemoryStorage()) },
      act: { context in
        let counter = context.bloc
        for _ in 0..<3 { await counter.send(.increment) }
        #expect(counter.keepsHistory)
        #expect(counter.undo() && counter.undo())
        #expect(counter.state.count == 1)
        #expect(counter.redo())
        await counter.send(.set(10))
        #expect(!counter.canRedo, "a new change clears what can be redone")
      },
      expect: [1, 2, 3, 2, 1, 2, 10].map { CounterState(count: $0) })
  }

  @Test func theCountSurvivesARestartInARealDirectory() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let first = CounterBloc(
      storage: try FileStorage(directory: directory))
    for _ in 0..<3 { await first.send(.increment) }
    // The outcome arrives once stored: no close needed before reading.
    #expect(
      try storedText(directory, "counter") == #"{"schemaVersion":1,"seq":3,"state":{"count":3}}"#)
    #expect(first.undo())
    await first.waitUntilStored()
    let second = CounterBloc(
      storage: try FileStorage(directory: directory))
    #expect(second.state.count == 2, "an undo is stored too")
    #expect(!second.canUndo, "history is not persisted")
    await first.close()
    await second.close()
  }
}
