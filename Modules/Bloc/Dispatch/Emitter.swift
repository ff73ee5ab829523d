import Synchronization

/// Given to a handler to emit states for the event it handles.
///
/// ```swift
/// on(.load) { event, emit in
///   emit(.loading)
///   emit(.loaded(try await service.fetch()))
/// }
/// ```
/// Once the handler returns or is cancelled the emitter is done, and a later emit is dropped.
/// What else happens depends on how it ended, as in felangel/bloc:
/// - **Cancelled** (by ``BlocBase/close()``, by a restartable successor, or by an event whose
///   registration `cancels:` its kind): the emit is dropped silently. The cancellation already
///   shows, as the event's ``EventOutcome/cancelled`` outcome; a handler that ignores it and
///   emits anyway is not an error.
/// - **Finished** (the handler returned or threw): the emit is a bug, say an emitter kept in a
///   `Task` the handler did not await. It is dropped and reported to `onError` as
///   ``BlocError/emitAfterHandlerDone(bloc:event:)``.
///
/// Reading and emitting are final, so a handler compiled in another module reaches the bloc's
/// state through code specialised for its own types (release builds optimise across modules).
public class Emitter<State: Sendable & Equatable>: @unchecked Sendable {  // atomics and lets only
  // The class is not open; its only subclass (JobEmitter) adds immutable or weak references.
  /// ``Phase/active`` until the handler finishes or is cancelled, whichever comes first.
  private let phase = Atomic<UInt8>(Phase.active)
  private let lastSequence = Atomic<UInt64>(0)
  // How many `forEach` loops are running: one still running when the handler returns was not
  // awaited, a misuse the bloc reports.
  private let loops = Atomic<Int>(0)
  /// The bloc whose state this emitter changes.
  fileprivate let owner: BlocBase<State>

  fileprivate init(owner: BlocBase<State>) { self.owner = owner }

  /// The bloc's clock, to read the time. To wait, use ``sleep(for:)``.
  public var clock: any Clock<Duration> { fatalError("subclass") }

  /// The bloc's current state.
  public final var state: State { owner.state }

  /// Whether emits still take effect (false once the handler finished or was cancelled).
  public final var isActive: Bool {
    phase.load(ordering: .acquiring) == Phase.active
  }

  /// Emits `state` if the handler is still active and `state` differs from the current one.
  public final func callAsFunction(_ state: State) {
    guard isActive else {
      reportDropped()
      return
    }
    if let sequence = apply({ _ in state }) {
      _ = lastSequence.max(sequence, ordering: .relaxed)
    }
  }

  /// Changes the state in place, atomically: `body` gets the current state and its result is
  /// emitted under the bloc's lock, so no other handler's change can come between the read and
  /// the write (handlers running side by side never lose an update).
  ///
  /// ```swift
  /// on(.increment) { _, emit in emit.update { $0.count += 1 } }
  /// on(.set) { event, emit in try emit.update { try $0.apply(event) } }
  /// ```
  /// `body` runs under the lock: keep it quick, and do not touch the bloc from it. If it throws,
  /// nothing is emitted and the error is rethrown. An unchanged state is not a change.
  public final func update<Failure: Error>(
    _ body: (inout State) throws(Failure) -> Void
  )
    throws(Failure)
  {
    guard isActive else {
      reportDropped()
      return
    }
    var failure: Failure?
    let sequence = apply { current in
      var next = current
      do throws(Failure) {
        try body(&next)
      } catch {
        failure = error
        return current
      }
      return next
    }
    if let failure { throw failure }
    if let sequence { _ = lastSequence.max(sequence, ordering: .relaxed) }
  }

  /// Waits on the bloc's clock (virtual time under test); throws `CancellationError` when the
  /// handler is cancelled. Prefer it to `Task.sleep`, which a test clock cannot drive.
  public func sleep(for duration: Duration) async throws { fatalError("subclass") }

  /// Emits a state for each element of `sequence` until it ends or the handler is cancelled.
  /// An error thrown by the sequence is rethrown unless `onError` maps it to a state.
  ///
  /// Await it inside the handler: a loop left running after the handler returns (say, in a
  /// `Task`) fails the event with ``BlocError/forEachNotAwaited(bloc:event:)``.
  public func forEach<S: AsyncSequence & Sendable>(
    _ sequence: S, onData: @Sendable (S.Element) -> State,
    onError: (@Sendable (any Error) -> State)? = nil
  ) async throws where S.Element: Sendable {
    loops.add(1, ordering: .relaxed)
    defer { loops.subtract(1, ordering: .relaxed) }
    if !isActive, !Task.isCancelled {
      reportMisusedLoop()
      return
    }
    do {
      for try await element in sequence {
        if Task.isCancelled || !isActive { return }
        self(onData(element))
      }
    } catch {
      if Task.isCancelled || !isActive { return }
      guard let onError else { throw error }
      self(onError(error))
    }
  }

  /// Applies the state `compute` derives from the current one; nil when unchanged or refused.
  /// An emit that finds the bloc closed comes from a handler `close()` is cancelling (it
  /// cancels every running one), so it is dropped silently, like any emit after cancellation.
  private func apply(_ compute: (State) -> State) -> UInt64? {
    try? owner.apply(
      reportingClose: false, cause: { self.cause }, announce: { self.announce($0) }, compute)
  }

  /// Why this emitter's changes are made: the event its handler handles.
  fileprivate var cause: ChangeCause { .emit }

  /// Tells the bloc's hooks of a change this emitter made, before `onChange`.
  fileprivate func announce(_ change: Change<State>) {}
  /// Reports an emit dropped because the emitter is done; silent when it was cancelled.
  fileprivate func reportDropped() {}
  fileprivate func reportMisusedLoop() {}
  /// Whether a `forEach` loop is still running.
  var isLooping: Bool { loops.load(ordering: .relaxed) > 0 }
  /// The handler finished (returned or threw): a later emit is reported.
  final func finish() { end(as: Phase.finished) }
  /// The handler was cancelled: a later emit is dropped silently.
  final func cancel() { end(as: Phase.cancelled) }
  /// Whether the emitter was cancelled (rather than finished, or still active).
  fileprivate final var wasCancelled: Bool { phase.load(ordering: .acquiring) == Phase.cancelled }

  /// The first end wins: a cancelled handler that then returns stays cancelled.
  private func end(as ended: UInt8) {
    _ = phase.compareExchange(expected: Phase.active, desired: ended, ordering: .releasing)
  }
  final var highestSequence: UInt64 { lastSequence.load(ordering: .relaxed) }
}

/// The emitter of one job of a ``Bloc``: knows the event, for transitions and error reports.
final class JobEmitter<Event: BlocEvent, State: Sendable & Equatable>: Emitter<State>,
  @unchecked Sendable  // adds only lets
{
  // The bloc is the base's `owner` (strong: the bloc outlives its jobs; an emitter a handler
  // keeps after its job keeps the bloc), held once. Unchecked: `init` is given a
  // `Bloc<Event, State>`; `as!` cost 370 instructions per emit.
  private var bloc: Bloc<Event, State> { unsafeDowncast(owner, to: Bloc<Event, State>.self) }
  /// The event its handler handles.
  let event: Event
  /// That handler, kept with its event from the event's admission (so that the runner takes
  /// it with the job, without looking up the event's registration).
  let body: Bloc<Event, State>.Body
  /// Calls `onTransition`; a closure without context, written where the emitter is made
  /// (``Bloc/makeEmitter(for:body:)``): specialised for the bloc's types when `add` claimed an
  /// idle bloc in the client, not for a queued event (then it is called only when a transition
  /// is wanted, see ``announce(_:)``).
  private let transition: @Sendable (Bloc<Event, State>, Event, Change<State>) -> Void

  init(
    bloc: Bloc<Event, State>, event: Event, body: Bloc<Event, State>.Body,
    transition: @escaping @Sendable (Bloc<Event, State>, Event, Change<State>) -> Void
  ) {
    self.event = event
    self.body = body
    self.transition = transition
    super.init(owner: bloc)
  }

  override var clock: any Clock<Duration> { bloc.clock }

  override func sleep(for duration: Duration) async throws {
    try await bloc.sleep(for: duration)
  }

  fileprivate override func announce(_ change: Change<State>) {
    let bloc = bloc
    // Usually nobody listens: then no transition is built (code compiled once for every
    // event and state type builds it with runtime metadata lookups).
    if bloc.isPlain, !bloc.observedHooks.contains(.transition) { return }
    transition(bloc, event, change)
  }

  fileprivate override var cause: ChangeCause { .event(event) }

  fileprivate override func reportMisusedLoop() {
    bloc.reportError(
      BlocError.forEachNotAwaited(bloc: bloc.name, event: String(describing: event)))
  }

  fileprivate override func reportDropped() {
    if wasCancelled { return }
    bloc.reportError(
      BlocError.emitAfterHandlerDone(bloc: bloc.name, event: String(describing: event)))
  }
}

/// The phases of an ``Emitter``, as raw values for its atomic.
private enum Phase {
  static let active: UInt8 = 0
  static let finished: UInt8 = 1
  static let cancelled: UInt8 = 2
}
