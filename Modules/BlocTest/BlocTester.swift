@_spi(Testing) import BlocCore
import Testing

/// Tests a bloc or cubit end to end and records any mismatch as a Swift Testing issue.
///
/// The steps: `build` (given a ``TestClock``) → `seed` (not recorded) → `act` → settle → close →
/// compare every state produced with `expect`, exhaustively (a missing or an extra state fails,
/// with a diff) → compare reported errors with `errors` (by default none is allowed) → `verify`.
///
/// What `build` does is treated as bloc_test treats it:
/// - a state emitted synchronously while `build` runs (say, by a cubit's initializer) is not
///   recorded: it is the starting point, like `seed`;
/// - an event added while `build` runs (say, by a bloc's initializer) waits, and is handled
///   after `seed` is applied, so its states are recorded and build on the seed;
/// - a state from work that `build` started and that lands later, on another task, is recorded,
///   even if it lands before `build` returns.
///
/// A `send` that `build` awaits is handled at once, after the events added before it: `build`
/// wants its outcome.
///
/// ```swift
/// @Test func increments() async {
///   await blocTest(
///     build: { _ in CounterBloc() },
///     act: { $0.bloc.add(.increment) },
///     expect: [1])
/// }
/// ```
@discardableResult
public func blocTest<B: BlocBase<State>, State: Sendable & Equatable>(
  build: @Sendable (TestClock) async throws -> B,
  seed: State? = nil,
  act: @Sendable (BlocTestContext<B, State>) async throws -> Void = { _ in },
  skip: Int = 0,
  expect: [State],
  errors: [ErrorExpectation] = [],
  verify: @Sendable (B) async throws -> Void = { _ in },
  sourceLocation: SourceLocation = #_sourceLocation
) async -> BlocTestReport<State> {
  let report = await runBlocTest(
    build: build, seed: seed, act: act, skip: skip, expect: expect, errors: errors,
    verify: verify)
  for failure in report.failures {
    Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
  }
  return report
}

/// Like ``blocTest(build:seed:act:skip:expect:errors:verify:sourceLocation:)`` but only
/// returns the report, recording nothing: for XCTest, and for testing the harness itself.
public func runBlocTest<B: BlocBase<State>, State: Sendable & Equatable>(
  build: @Sendable (TestClock) async throws -> B,
  seed: State? = nil,
  act: @Sendable (BlocTestContext<B, State>) async throws -> Void = { _ in },
  skip: Int = 0,
  expect: [State],
  errors expectedErrors: [ErrorExpectation] = [],
  verify: @Sendable (B) async throws -> Void = { _ in }
) async -> BlocTestReport<State> {
  let clock = TestClock()
  // Every bloc of this state type made during `build` is recorded from its creation, so work
  // that lands on another task before `build` returns is never missed; only the built one's
  // record is kept. The states this task emits while building are not recorded, and every
  // bloc made meanwhile holds its events until `seed` is applied.
  let made = CreatedBlocs<State>(builder: currentTaskIdentity())
  let bloc: B
  do {
    bloc = try await CreationWatch.$onCreate.withValue({ made.watch($0) }) {
      try await build(clock)
    }
  } catch {
    made.stopAll()
    made.releaseAll()
    return BlocTestReport(states: [], errors: [], failures: ["build threw: \(error)"])
  }
  made.endBuild()
  let recording = made.keep(bloc)
  if let seed { bloc.seed(seed) }
  made.releaseAll()
  var failures: [String] = []
  let context = BlocTestContext<B, State>(bloc: bloc, clock: clock)
  do {
    try await act(context)
  } catch {
    failures.append("act threw: \(error)")
  }
  await context.settle()
  await bloc.close()
  let (allStates, errors) = recording.recorded
  let states = Array(allStates.dropFirst(skip))
  if let diff = stateDiff(expected: expect, actual: states) { failures.append(diff) }
  failures += errorMismatches(expected: expectedErrors, actual: errors)
  do {
    try await verify(bloc)
  } catch {
    failures.append("verify threw: \(error)")
  }
  return BlocTestReport(states: states, errors: errors, failures: failures)
}

/// Pairs expected errors with actual ones in order.
func errorMismatches(expected: [ErrorExpectation], actual: [any Error]) -> [String] {
  var failures: [String] = []
  for index in 0..<max(expected.count, actual.count) {
    switch (
      index < expected.count ? expected[index] : nil, index < actual.count ? actual[index] : nil
    ) {
    case (let want?, let got?) where !want.matches(got):
      failures.append("error [\(index)]: expected \(want), got: \(got)")
    case (let want?, nil):
      failures.append("error [\(index)]: expected \(want), but no error was reported")
    case (nil, let got?):
      failures.append("unexpected error [\(index)]: \(got) (list it in errors: to expect it)")
    default:
      break
    }
  }
  return failures
}

/// Collects what the tap sees, from any thread.
final class Recording<State: Sendable>: Sendable {
  private let log = Locked<([State], [any Error])>(([], []))
  private let build: BuildWindow?

  /// `build`: the window in which the building task's own changes are not recorded.
  init(build: BuildWindow? = nil) { self.build = build }

  func record(_ tap: Tap<State>) {
    if case .change = tap, build?.covers() == true { return }
    log.withLock { log in
      switch tap {
      case .change(let change): log.0.append(change.next)
      case .error(let error): log.1.append(error)
      }
    }
  }

  var recorded: ([State], [any Error]) { log.withLock { $0 } }
}

/// While `build` runs: which task builds. A change that task makes meanwhile is synchronous
/// with `build`, so it is not recorded; a change from any other task is.
final class BuildWindow: Sendable {
  private let builder: Int?
  private let open = Locked(true)

  init(builder: Int?) { self.builder = builder }

  func close() { open.withLock { $0 = false } }

  /// Whether the change being made now is the building task's own, made while `build` runs.
  func covers() -> Bool {
    guard let builder, open.withLock({ $0 }) else { return false }
    return currentTaskIdentity() == builder
  }
}

/// Identifies the current task while it runs (nil outside any task).
func currentTaskIdentity() -> Int? {
  withUnsafeCurrentTask { $0?.hashValue }
}

/// The blocs created during `build`, each with the tap recording it; and every bloc (of any
/// state type) created meanwhile, whose events wait until ``releaseAll()``.
final class CreatedBlocs<State: Sendable & Equatable>: Sendable {
  private struct Entry {
    weak var bloc: BlocBase<State>?
    let token: ObserverToken
    let recording: Recording<State>
  }
  private struct HeldBloc {
    weak var bloc: (any EventHolding)?
  }
  private let entries = Locked<[ObjectIdentifier: Entry]>([:])
  private let held = Locked<[HeldBloc]>([])
  private let window: BuildWindow

  init(builder: Int?) { window = BuildWindow(builder: builder) }

  func watch(_ object: AnyObject) {
    if let holding = object as? any EventHolding {
      holding.holdEvents()
      held.withLock { $0.append(HeldBloc(bloc: holding)) }
    }
    guard let bloc = object as? BlocBase<State> else { return }
    let recording = Recording<State>(build: window)
    let token = bloc.tap { recording.record($0) }
    entries.withLock {
      $0[ObjectIdentifier(bloc)] = Entry(bloc: bloc, token: token, recording: recording)
    }
  }

  /// Stops recording every bloc but `bloc`, and returns `bloc`'s recording (starting it now if
  /// the bloc was made before `build`).
  func keep(_ bloc: BlocBase<State>) -> Recording<State> {
    let kept = entries.withLock { $0.removeValue(forKey: ObjectIdentifier(bloc)) }
    stopAll()
    if let kept { return kept.recording }
    let recording = Recording<State>()
    bloc.tap { recording.record($0) }
    return recording
  }

  /// `build` returned: from now on, every change is recorded.
  func endBuild() { window.close() }

  /// Handles the held events of every bloc made during `build`, in the order they were made.
  func releaseAll() {
    let blocs = held.withLock { held in
      defer { held = [] }
      return held.compactMap(\.bloc)
    }
    for bloc in blocs { bloc.releaseHeldEvents() }
  }

  func stopAll() {
    let others = entries.withLock { entries in
      defer { entries = [:] }
      return Array(entries.values)
    }
    for entry in others { entry.bloc?.untap(entry.token) }
  }
}
