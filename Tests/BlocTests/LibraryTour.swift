// The API tour of LIBRARY.md, compiled. LibraryTourTests checks that every Swift block of the
// tour appears here verbatim, so LIBRARY.md cannot drift from code that builds.
import BlocCore
import BlocTest
import Testing

// tour: cubit
final class CounterCubitTour: Cubit<Int>, @unchecked Sendable {  // state behind locks
  init() { super.init(initialState: 0) }

  func increment() throws { try emit(state + 1) }
}
// end

// tour: bloc
enum TourEvent: BlocEvent {
  case increment, decrement
}

func makeCounterBloc() -> Bloc<TourEvent, Int> {
  Bloc(initialState: 0, name: "counter") { bloc in
    bloc.on(.increment) { _, emit in emit.update { $0 += 1 } }
    bloc.on(.decrement) { _, emit in emit.update { $0 -= 1 } }
  }
}
// end

// tour: subclass
final class CounterBlocTour: Bloc<TourEvent, Int>, @unchecked Sendable {  // state behind locks
  init() {
    super.init(initialState: 0)
    on(.increment) { _, emit in emit(emit.state + 1) }
    on(.decrement) { _, emit in emit(emit.state - 1) }
  }

  override func onChange(_ change: Change<Int>) {
    super.onChange(change)
    print(change)
  }
}
// end

// tour: search
enum QueryEvent: BlocEvent {
  case query(String), clear

  enum Kind { case query, clear }
  var kind: Kind {
    switch self {
    case .query: .query
    case .clear: .clear
    }
  }
}

func makeQueryBloc(clock: any Clock<Duration> = ContinuousClock()) -> Bloc<QueryEvent, [String]> {
  Bloc(initialState: [], clock: clock) { bloc in
    bloc.on(.query, transformer: .debounce(.milliseconds(300))) { event, emit in
      guard case .query(let term) = event else { return }
      try await emit.sleep(for: .milliseconds(50))  // stands in for a network call
      emit([term.uppercased()])
    }
    bloc.on(.clear, cancels: [.query]) { _, emit in emit([]) }  // a query in flight is discarded
  }
}
// end

enum TourError: Error { case offline }

@Suite struct TourUsage {
  @Test func tour() async throws {
    // tour: use
    let cubit = CounterCubitTour()
    try cubit.increment()
    print(cubit.state)  // 1

    let counter = makeCounterBloc()
    counter.add(.increment)  // handled inline: done on return
    print(counter.state)  // 1

    let bloc = CounterBlocTour()
    let outcome = await bloc.send(.increment)  // waits until the event is handled
    print(outcome, bloc.state)  // handled 1

    for await state in bloc.states.prefix(1) {
      print(state)  // the current state first: 1
    }
    await bloc.close()
    // end
    #expect(cubit.state == 1 && counter.state == 1 && bloc.state == 1)
  }

  @Test func history() {
    // tour: history
    // Undo and redo return only to even counts, stepping over the others.
    let stepper = Bloc<TourEvent, Int>(
      initialState: 0, history: .limit(50).replaying { (count: Int) in count.isMultiple(of: 2) }
    ) { bloc in
      bloc.on(.increment) { _, emit in emit.update { $0 += 1 } }
    }
    for _ in 0..<3 { stepper.add(.increment) }  // 1, 2, 3
    stepper.undo()  // 2
    stepper.undo()  // 0: 1 is stepped over
    stepper.addError(TourError.offline)  // to onError and observers, like the bloc's own errors
    // end
    #expect(stepper.state == 0 && stepper.canRedo)
  }

  // tour: test
  @Test func debouncedQuery() async {
    await blocTest(
      build: { clock in makeQueryBloc(clock: clock) },
      act: { context in
        context.bloc.add(.query("ma"))
        context.bloc.add(.query("maps"))
        await context.advance(by: .milliseconds(350))  // virtual time: no real sleep
      },
      expect: [["MAPS"]])
  }
  // end
}
