import Synchronization

/// Given to a handler to emit states for the event it handles.
///
/// ```swift
/// on(.load) { event, emit in
///   emit(.loading)
///   emit(.loaded(try await service.fetch()))
/// }
/// ```
/// Once the handler returns or is cancelled the emitter is done: a later emit is dropped and
/// reported as ``BlocError/emitAfterHandlerDone(bloc:event:)``.
public final class Emitter<State: Sendable & Equatable>: Sendable {
  private let apply: @Sendable (State) -> UInt64?
  private let current: @Sendable () -> State
  private let reportDropped: @Sendable () -> Void
  private let active = Atomic<Bool>(true)
  private let lastSequence = Atomic<UInt64>(0)
  private let sleeper: @Sendable (Duration) async throws -> Void
  /// The bloc's clock, to read the time. To wait, use ``sleep(for:)``.
  public let clock: any Clock<Duration>

  init(
    clock: any Clock<Duration>, sleep: @escaping @Sendable (Duration) async throws -> Void,
    current: @escaping @Sendable () -> State,
    apply: @escaping @Sendable (State) -> UInt64?, reportDropped: @escaping @Sendable () -> Void
  ) {
    self.clock = clock
    self.sleeper = sleep
    self.current = current
    self.apply = apply
    self.reportDropped = reportDropped
  }

  /// The bloc's current state.
  public var state: State { current() }

  /// Whether emits still take effect (false once the handler finished or was cancelled).
  public var isActive: Bool { active.load(ordering: .acquiring) }

  /// Emits `state` if the handler is still active and `state` differs from the current one.
  public func callAsFunction(_ state: State) {
    guard isActive else {
      reportDropped()
      return
    }
    if let sequence = apply(state) {
      _ = lastSequence.max(sequence, ordering: .relaxed)
    }
  }

  /// Waits on the bloc's clock (virtual time under test); throws `CancellationError` when the
  /// handler is cancelled. Prefer it to `Task.sleep`, which a test clock cannot drive.
  public func sleep(for duration: Duration) async throws {
    try await sleeper(duration)
  }

  /// Emits a state for each element of `sequence` until it ends or the handler is cancelled.
  /// An error thrown by the sequence is rethrown unless `onError` maps it to a state.
  public func forEach<S: AsyncSequence & Sendable>(
    _ sequence: S, onData: @Sendable (S.Element) -> State,
    onError: (@Sendable (any Error) -> State)? = nil
  ) async throws where S.Element: Sendable {
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

  func finish() { active.store(false, ordering: .releasing) }
  var highestSequence: UInt64 { lastSequence.load(ordering: .relaxed) }
}
