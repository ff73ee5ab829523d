import BlocCore

/// A latch a handler can wait on until the test opens it: controls timing with no sleeps.
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

  var waiting: Int { state.withLock { $0.waiters.count } }
}

/// Waits (yielding, never sleeping) until `condition` holds.
func eventually(_ condition: @Sendable () -> Bool) async {
  for _ in 0..<100_000 where !condition() { await Task.yield() }
}

final class CounterCubit: Cubit<Int>, @unchecked Sendable {
  init(history: HistoryLimit? = nil) { super.init(initialState: 0, history: history) }
  func increment() throws { try emit(state + 1) }
  func set(_ value: Int) throws { try emit(value) }
}

enum CounterEvent: BlocEvent, Hashable {
  case increment, decrement, fail, unhandled
}

struct Boom: Error, Equatable, Sendable {}

final class CounterBloc: Bloc<CounterEvent, Int>, @unchecked Sendable {
  init(history: HistoryLimit? = nil) {
    super.init(initialState: 0, history: history)
    on(.increment) { _, emit in emit(emit.state + 1) }
    on(.decrement) { _, emit in emit(emit.state - 1) }
    on(.fail) { _, _ in throw Boom() }
  }
}

/// Events carrying a value, to watch transformers decide which run.
enum ValueEvent: BlocEvent, Sendable, CustomStringConvertible {
  case value(Int)
  var kind: String { "value" }
  var description: String {
    switch self {
    case .value(let number): "value(\(number))"
    }
  }
  var number: Int {
    switch self {
    case .value(let number): number
    }
  }
}

/// Emits the event's value after waiting on the gate for that value (if any).
final class GatedBloc: Bloc<ValueEvent, Int>, @unchecked Sendable {
  let gates: [Int: Gate]
  init(
    transformer: EventTransformer, gates: [Int: Gate] = [:],
    clock: any Clock<Duration> = ContinuousClock()
  ) {
    self.gates = gates
    super.init(initialState: 0, clock: clock)
    on("value", transformer: transformer) { [gates] event, emit in
      if let gate = gates[event.number] { await gate.wait() }
      emit(event.number)
    }
  }
}

/// Records observer calls as text, in order.
final class LogObserver: BlocObserver {
  let lines = Locked<[String]>([])
  let hooks: BlocHooks
  init(hooks: BlocHooks = .all) { self.hooks = hooks }
  func log(_ line: String) { lines.withLock { $0.append(line) } }
  var all: [String] { lines.withLock { $0 } }

  func onCreate<State>(_ bloc: BlocBase<State>) { log("create \(bloc.name)") }
  func onEvent<Event, State>(_ bloc: Bloc<Event, State>, event: Event) { log("event \(event)") }
  func onChange<State>(_ bloc: BlocBase<State>, change: Change<State>) {
    log("change \(change.current)->\(change.next)")
  }
  func onTransition<Event, State>(_ bloc: Bloc<Event, State>, transition: Transition<Event, State>)
  {
    log("transition \(transition.current)-\(transition.event)->\(transition.next)")
  }
  func onError<State>(_ bloc: BlocBase<State>, error: any Error) { log("error \(error)") }
  func onDone<Event, State>(_ bloc: Bloc<Event, State>, event: Event, outcome: EventOutcome) {
    log("done \(event) \(outcome.name)")
  }
  func onClose<State>(_ bloc: BlocBase<State>) { log("close \(bloc.name)") }
}
