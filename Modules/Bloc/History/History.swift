/// How many past states an undoable bloc keeps, and which of them undo and redo return to.
///
/// ```swift
/// super.init(initialState: 0, history: .limit(100))
/// // Undo and redo step over the transient loading states:
/// Bloc(initialState: Page(), history: .limit(50).replaying { (page: Page) in !page.isLoading })
/// ```
public struct HistoryLimit: Sendable, Equatable {
  /// The most undo steps kept; older ones are forgotten first.
  public let count: Int
  /// Type-erased `shouldReplay`: the bloc's state type is not known here.
  fileprivate let replays: (@Sendable (Any) -> Bool)?

  private init(count: Int, replays: (@Sendable (Any) -> Bool)? = nil) {
    self.count = count
    self.replays = replays
  }

  /// At most `count` undo steps (at least 1).
  public static func limit(_ count: Int) -> HistoryLimit { HistoryLimit(count: max(1, count)) }
  /// Keeps every step: memory grows with every change.
  public static let unlimited = HistoryLimit(count: Int.max)

  /// The same limit, with undo and redo returning only to states `shouldReplay` accepts: the
  /// others stay in the history but are stepped over (felangel/bloc's `shouldReplay`). When no
  /// accepted state is left, ``BlocBase/canUndo`` (or `canRedo`) is false. `State` must be the
  /// bloc's state type; for any other type the filter accepts every state.
  public func replaying<State>(_ shouldReplay: @escaping @Sendable (State) -> Bool) -> HistoryLimit
  {
    HistoryLimit(count: count) { state in (state as? State).map(shouldReplay) ?? true }
  }

  /// Equal when the counts are equal and both filter or both do not (closures cannot be
  /// compared).
  public static func == (lhs: HistoryLimit, rhs: HistoryLimit) -> Bool {
    lhs.count == rhs.count && (lhs.replays == nil) == (rhs.replays == nil)
  }
}

/// The undo and redo stacks. An equal state is never recorded (the bloc only records real
/// changes), and a recorded change clears the redo stack. Touched under the bloc's lock.
///
/// A class whose fields are not generic (the states lie in ``StateBuffer``s): a bloc records
/// on every change, also from code not specialised for its state type (``BlocBase/apply``
/// called unspecialised), where an `Array<State>` or a generic struct costs a runtime metadata
/// lookup per use; this touches `State` only through its own metadata.
final class History<State> {
  private let limit: HistoryLimit
  // Unchecked: the bloc's lock keeps accesses apart, which the run-time checks (a runtime call
  // per access, 300 instructions per recorded change) would check again.
  /// The undo stack is the states from `first` on: states that fell off its bottom stay in
  /// front until they are as many as the limit, then go in one move, so recording costs O(1)
  /// amortised rather than a shift of the whole stack per change.
  @exclusivity(unchecked) private var stack = StateBuffer()
  @exclusivity(unchecked) private var first = 0
  /// The redo stack, the next state last.
  @exclusivity(unchecked) private var future = StateBuffer()

  init(limit: HistoryLimit) { self.limit = limit }

  deinit {
    stack.free(State.self)
    future.free(State.self)
  }

  private func replays(_ state: State) -> Bool { limit.replays?(state) ?? true }

  fileprivate var canUndo: Bool {
    (first..<stack.count).contains { replays(stack.value(at: $0, as: State.self)) }
  }
  fileprivate var canRedo: Bool {
    (0..<future.count).contains { replays(future.value(at: $0, as: State.self)) }
  }

  func record(_ previous: State) {
    withUnsafePointer(to: previous) { record($0) }
  }

  /// Records the state at `previous` (copied from there: no copy passed in first). Inlined
  /// into a change's unspecialised code, which calls it on every change.
  @inline(__always)
  func record(_ previous: UnsafePointer<State>) {
    stack.append(copying: previous)
    if stack.count - first > limit.count {
      first += 1
      if first >= max(limit.count, 16) {
        var none = StateBuffer()
        stack.removeFirst(first, to: &none, as: State.self)
        first = 0
      }
    }
    if future.count > 0 { future.removeAll(State.self) }
  }

  /// Steps back to the latest state that replays; the states stepped over move to redo.
  fileprivate func undo(from current: State) -> State? {
    guard canUndo else { return nil }
    var current = current
    while stack.count > first, let previous = stack.popLast(as: State.self) {
      future.append(current)
      current = previous
      if replays(previous) { break }
    }
    return current
  }

  /// Steps forward to the next state that replays; the states stepped over move to undo.
  fileprivate func redo(from current: State) -> State? {
    guard canRedo else { return nil }
    var current = current
    while let next = future.popLast(as: State.self) {
      stack.append(current)  // never past the limit: these states came off the undo stack
      current = next
      if replays(next) { break }
    }
    return current
  }

  func clear() {
    stack.removeAll(State.self)
    first = 0
    future.removeAll(State.self)
  }
}

extension BlocBase {
  /// Whether this bloc keeps history for undo and redo (it was created with a `history` limit).
  public var keepsHistory: Bool { history != nil }

  /// Whether ``undo()`` would change the state.
  public var canUndo: Bool { core.withLock { _ in history?.canUndo ?? false } }
  /// Whether ``redo()`` would change the state.
  public var canRedo: Bool { core.withLock { _ in history?.canRedo ?? false } }

  /// Returns to the previous state. False when there is nothing to undo, the bloc keeps no
  /// history, or it is closed.
  @discardableResult
  public func undo() -> Bool { stepChange(forward: false) != nil }

  /// Reapplies the state last undone. A recorded change clears what can be redone; an event
  /// that fails or changes nothing does not.
  @discardableResult
  public func redo() -> Bool { stepChange(forward: true) != nil }

  /// Forgets every undo and redo step.
  public func clearHistory() { core.withLock { _ in history?.clear() } }

  /// Redoes (`forward`) or undoes the last change; returns the change made, nil when none.
  package func stepChange(forward: Bool) -> MadeChange<State>? {
    let target = core.withLock { core -> State? in
      guard !core.isClosed, let history else { return nil }
      return forward ? history.redo(from: core.state) : history.undo(from: core.state)
    }
    guard let target else { return nil }
    var made: Change<State>?
    let cause: ChangeCause = forward ? .redo : .undo
    guard
      let sequence = try? apply(
        target, recordHistory: false, cause: { cause }, announce: { made = $0 }),
      let made
    else { return nil }
    return MadeChange(sequence: sequence, change: made)
  }
}
