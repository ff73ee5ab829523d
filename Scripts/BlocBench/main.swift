// In-process benchmark of the Bloc core: events per second beside floors measured in the same
// run. Run through Scripts/bench (release build). A benchmark, never a test.
import BlocCore
import Dispatch
import Glibc

final class Plain {
  var count = 0
  @inline(never) func increment() { count &+= 1 }
}

actor Target {
  var count = 0
  func increment() { count &+= 1 }
}

actor Caller {
  func run(_ target: Target, _ n: Int) async {
    for _ in 0..<n { await target.increment() }
  }
}

final class BenchCubit: Cubit<Int>, @unchecked Sendable {
  init() { super.init(initialState: 0) }
  func increment() { try? emit(state &+ 1) }
}

enum Tick: BlocEvent, Hashable { case tick }

final class BenchBloc: Bloc<Tick, Int>, @unchecked Sendable {
  init() {
    super.init(initialState: 0)
    on(.tick) { _, emit in emit(emit.state &+ 1) }
  }
}

/// Adds an event from generic code the optimiser may not specialise: what a generic adapter in
/// another module (not `@inlinable`) does, such as the daemon's `Feature`.
@_semantics("optimize.sil.specialize.generic.never")
@inline(never)
func addUnspecialised<Event, State>(_ bloc: Bloc<Event, State>, _ event: Event, times: Int) {
  for _ in 0..<times { bloc.add(event) }
}

/// Its handler may suspend, so `add` never runs it inline: events queue for a runner task.
func makeQueuedBloc() -> Bloc<Tick, Int> {
  Bloc(initialState: 0) { bloc in
    bloc.on(.tick) { (_, emit) async in emit(emit.state &+ 1) }
  }
}

func seconds(_ body: () async -> Void) async -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  await body()
  return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// Best of `rounds` runs, in operations per second. `body` is `@Sendable` so that it runs on
/// the concurrency pool, not on the main actor of this top-level code (which would add a hop
/// to every `await` inside it).
func rate(
  _ n: Int, rounds: Int = 5, _ body: @escaping @Sendable (Int) async -> Void
) async
  -> Double
{
  var best = 0.0
  for _ in 0..<rounds {
    let elapsed = await seconds { await Task.detached { await body(n) }.value }
    best = max(best, Double(n) / elapsed)
  }
  return best
}

/// Adds `count` synchronous listeners.
func listen(_ bloc: BlocBase<Int>, count: Int) {
  for _ in 0..<count { bloc.listen { _ in } }
}

/// Starts `count` subscribers that drain `states` until the bloc closes.
func subscribe(_ bloc: BlocBase<Int>, count: Int) -> [Task<Void, Never>] {
  (0..<count).map { _ in Task { for await _ in bloc.states {} } }
}

/// User and system time of the whole process so far.
func cpuNanoseconds() -> Int {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  let seconds = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec
  let micros = usage.ru_utime.tv_usec + usage.ru_stime.tv_usec
  return seconds * 1_000_000_000 + micros * 1_000
}

let scale = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 1
// For profiling one case: `bloc-bench 1 cubit`, `bloc-bench 1 bloc`, or only Bloc's add with
// one subscriber: `bloc-bench 1 add1` (`add0`: none; both also print the CPU time per add), or only add from unspecialised code: `bloc-bench 1 generic`,
// or the CPU time per change of a bloc that changes 100 times a second: `bloc-bench 1 rare`.
let only = CommandLine.arguments.dropFirst(2).first
let n = 200_000 * scale

let plain = await rate(n * 10) { n in
  let object = Plain()
  for _ in 0..<n { object.increment() }
}
let actorCall = await rate(n) { n in await Caller().run(Target(), n) }
let handOff = await rate(n) { n in
  let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
  let consumer = Task { for await _ in stream {} }
  for i in 0..<n { continuation.yield(i) }
  continuation.finish()
  await consumer.value
}

func line(_ name: String, _ value: Double) {
  let perOp = 1e9 / value
  let ratio = actorCall / value
  let pad = String(repeating: " ", count: max(0, 34 - name.count))
  print(
    "\(name)\(pad)\(String(format: "%12.0f", value)) /s  \(String(format: "%8.1f", perOp)) ns"
      + "  \(String(format: "%6.1f", ratio))× actor call")
}

if only == nil {
  print("floors")
  line("plain method call (final class)", plain)
  line("actor-to-actor call", actorCall)
  line("AsyncStream hand-off", handOff)

}
if only == nil || only == "cubit" || only == "cubit0" {
  print("Cubit emit")
  for subscribers in [0, 1, 100] {
    let value = await rate(n) { n in
      let cubit = BenchCubit()
      let tasks = subscribe(cubit, count: subscribers)
      for _ in 0..<n { cubit.increment() }
      await cubit.close()
      for task in tasks { await task.value }
    }
    line("  \(subscribers) subscribers", value)
  }

}
if only == "cubit" || only == "cubit0" { exit(0) }
if only == "generic" {
  let value = await rate(n) { n in
    let bloc = BenchBloc()
    addUnspecialised(bloc, .tick, times: n)
    await bloc.close()
  }
  line("Bloc add from unspecialised generic code", value)
  exit(0)
}
if only == "add1" || only == "add0" {
  let subscribers = only == "add1" ? 1 : 0
  let cpuBefore = cpuNanoseconds()
  let value = await rate(n) { n in
    let bloc = BenchBloc()
    let tasks = subscribe(bloc, count: subscribers)
    for _ in 0..<n { bloc.add(.tick) }
    await bloc.close()
    for task in tasks { await task.value }
  }
  // CPU time of all threads per add (5 rounds): the work, whatever the machine's load.
  let cpu = Double(cpuNanoseconds() - cpuBefore) / Double(5 * n)
  print(String(format: "CPU per add (all threads): %.0f ns", cpu))
  line("Bloc add, \(subscribers) subscriber\(subscribers == 1 ? "" : "s")", value)
  exit(0)
}
if only == "rare" {
  // A bloc that changes now and then (100 times a second, from this thread) with 0, 1 and 10
  // subscribers: the CPU time of all threads per change, beside the same without subscribers.
  let changes = 300 * scale
  for subscribers in [0, 1, 10] {
    let bloc = BenchBloc()
    let tasks = subscribe(bloc, count: subscribers)
    usleep(50_000)  // the subscribers took the first state and wait
    let before = cpuNanoseconds()
    for _ in 0..<changes {
      bloc.add(.tick)
      usleep(10_000)
    }
    let cpu = Double(cpuNanoseconds() - before) / Double(changes)
    await bloc.close()
    for task in tasks { await task.value }
    print(
      String(
        format: "rare changes, %2d subscribers: CPU per change (all threads) %.1f us",
        subscribers, cpu / 1000))
  }
  exit(0)
}
/// Events per second through `add` until the state reaches `subscribers` subscriber tasks, on a
/// bloc `make` creates for each round.
func addRate(_ subscribers: Int, _ make: @escaping @Sendable () -> Bloc<Tick, Int>) async -> Double
{
  await rate(n) { n in
    let bloc = make()
    let tasks = subscribe(bloc, count: subscribers)
    var last: EventReceipt?
    for _ in 0..<n { last = bloc.add(.tick) }
    _ = await last?.outcome
    await bloc.close()
    for task in tasks { await task.value }
  }
}

print("Bloc add → new state (sequential)")
var blocRates: [Int: Double] = [:]
for subscribers in [0, 1, 100] {
  let value = await addRate(subscribers) { BenchBloc() }
  blocRates[subscribers] = value
  line("  \(subscribers) subscribers", value)
}

print("Bloc send → new state, awaiting each outcome (sequential)")
for subscribers in [0, 1, 100] {
  let value = await rate(n) { n in
    let bloc = BenchBloc()
    let tasks = subscribe(bloc, count: subscribers)
    for _ in 0..<n { await bloc.send(.tick) }
    await bloc.close()
    for task in tasks { await task.value }
  }
  blocRates[1000 + subscribers] = value
  line("  \(subscribers) subscribers", value)
}

print("Bloc send → new state with synchronous listeners (bloc.listen)")
for listeners in [1, 100] {
  let value = await rate(n) { n in
    let bloc = BenchBloc()
    listen(bloc, count: listeners)
    for _ in 0..<n { await bloc.send(.tick) }
    await bloc.close()
  }
  blocRates[2000 + listeners] = value
  line("  \(listeners) listeners", value)
}

print("Bloc add → new state, queued for a runner task (handler may suspend)")
for subscribers in [0, 1] {
  let value = await addRate(subscribers) { makeQueuedBloc() }
  line("  \(subscribers) subscribers", value)
}

print("Bloc add → new state from unspecialised generic code (a generic adapter)")
for subscribers in [0, 1] {
  let value = await rate(n) { n in
    let bloc = BenchBloc()
    let tasks = subscribe(bloc, count: subscribers)
    addUnspecialised(bloc, .tick, times: n)
    await bloc.close()
    for task in tasks { await task.value }
  }
  line("  \(subscribers) subscribers", value)
}

print("targets: Bloc add → state with 1 subscriber ≤ 9× an actor call, with 100 ≤ 30×")
print(
  String(
    format: "reached with add: 1 subscriber %.1f×, 100 subscribers %.1f×",
    actorCall / blocRates[1]!, actorCall / blocRates[100]!))
print(
  String(
    format: "reached with send: 1 subscriber %.1f×, 100 subscribers %.1f×",
    actorCall / blocRates[1001]!, actorCall / blocRates[1100]!))
print(
  String(
    format: "reached with send and listeners: 1 listener %.1f×, 100 listeners %.1f×",
    actorCall / blocRates[2001]!, actorCall / blocRates[2100]!))

// For Scripts/bench: `result NAME VALUE`, ratios in multiples of an actor call's time.
let results: [(String, Double)] = [
  ("actor_calls_per_second", actorCall),
  ("add_1_subscriber_ratio", actorCall / blocRates[1]!),
  ("add_100_subscribers_ratio", actorCall / blocRates[100]!),
  ("send_awaiting_0_subscribers_ratio", actorCall / blocRates[1000]!),
  ("send_awaiting_1_subscriber_ratio", actorCall / blocRates[1001]!),
]
for (name, value) in results { print("result \(name) \(String(format: "%.2f", value))") }
