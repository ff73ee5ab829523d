/// A state holder whose own methods emit new states.
///
/// ```swift
/// final class CounterCubit: Cubit<Int> {
///   init() { super.init(initialState: 0) }
///   func increment() throws { try emit(state + 1) }
/// }
///
/// let counter = CounterCubit()
/// try counter.increment()
/// counter.state  // 1
/// ```
/// An emit equal to the current state is not a change: no hook runs and no subscriber wakes.
/// Emitting after ``BlocBase/close()`` throws ``BlocError/emitAfterClose(bloc:)``.
open class Cubit<State: Sendable & Equatable>: BlocBase<State>,
  @unchecked Sendable  // adds no state to BlocBase's, which is behind its lock
{
  /// Makes `state` the current state if it differs.
  public final func emit(_ state: State) throws {
    try apply(state)
  }
}
