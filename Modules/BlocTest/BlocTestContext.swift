@_spi(Testing) import BlocCore

/// What a bloc test's `act` step works with: the bloc, its test clock, and ways to let time
/// pass and work finish without sleeping.
public struct BlocTestContext<B: BlocBase<State>, State: Sendable & Equatable>: Sendable {
  public let bloc: B
  public let clock: TestClock

  /// Waits until all work started so far is finished (see `BlocBase.settled()`).
  public func settle() async { await bloc.settled() }

  /// The nearest deadline known to the clock or to the bloc (whose timer may not have reached
  /// the clock yet).
  func nextDeadline() -> TestClock.Instant? {
    let fromBloc = bloc.nextDelay.map { clock.now.advanced(by: max(.zero, $0)) }
    return [clock.nextDeadline, fromBloc].compactMap { $0 }.min()
  }

  /// Moves virtual time forward deadline by deadline, letting the work each deadline wakes
  /// finish before the next, then settles.
  public func advance(by duration: Duration) async {
    let target = clock.now.advanced(by: duration)
    await settle()
    while let next = nextDeadline(), next <= target {
      clock.advance(to: next)
      await settle()
    }
    clock.advance(to: target)
    await settle()
  }
}
