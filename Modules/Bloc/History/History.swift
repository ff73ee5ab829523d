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
  let replays: (@Sendable (Any) -> Bool)?

  init(count: Int, replays: (@Sendable (Any) -> Bool)? = nil) {
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
/// changes), and a recorded change clears the redo stack.
///
/// Recording is `@inlinable` (and what it touches `@usableFromInline`): a bloc records on every
/// change, from code specialised for its state type, and a call to the unspecialised method
/// looked up `History<State>`'s metadata and the array's witness tables each time.
@usableFromInline struct History<State> {
  @usableFromInline let limit: HistoryLimit
  /// The undo stack is `stack[first...]`: states that fell off its bottom stay in front until
  /// they are as many as the limit, then go in one move, so recording costs O(1) amortised
  /// rather than a shift of the whole stack per change.
  @usableFromInline var stack: [State] = []
  @usableFromInline var first = 0
  @usableFromInline var future: [State] = []

  init(limit: HistoryLimit) { self.limit = limit }

  private func replays(_ state: State) -> Bool { limit.replays?(state) ?? true }

  var past: ArraySlice<State> { stack[first...] }
  var canUndo: Bool { past.contains(where: replays) }
  var canRedo: Bool { future.contains(where: replays) }

  @inlinable mutating func record(_ previous: State) {
    stack.append(previous)
    if stack.count - first > limit.count {
      first += 1
      if first >= max(limit.count, 16) {
        stack.removeFirst(first)
        first = 0
      }
    }
    if !future.isEmpty { future.removeAll() }
  }

  /// Steps back to the latest state that replays; the states stepped over move to redo.
  mutating func undo(from current: State) -> State? {
    guard canUndo else { return nil }
    var current = current
    while stack.count > first, let previous = stack.popLast() {
      future.append(current)
      current = previous
      if replays(previous) { break }
    }
    return current
  }

  /// Steps forward to the next state that replays; the states stepped over move to undo.
  mutating func redo(from current: State) -> State? {
    guard canRedo else { return nil }
    var current = current
    while let next = future.popLast() {
      stack.append(current)  // never past the limit: these states came off the undo stack
      current = next
      if replays(next) { break }
    }
    return current
  }

  mutating func clear() {
    stack.removeAll()
    first = 0
    future.removeAll()
  }
}

extension BlocBase {
  /// Whether this bloc keeps history for undo and redo (it was created with a `history` limit).
  public var keepsHistory: Bool { core.withLock { $0.history != nil } }

  /// Whether ``undo()`` would change the state.
  public var canUndo: Bool { core.withLock { $0.history?.canUndo ?? false } }
  /// Whether ``redo()`` would change the state.
  public var canRedo: Bool { core.withLock { $0.history?.canRedo ?? false } }

  /// Returns to the previous state. False when there is nothing to undo, the bloc keeps no
  /// history, or it is closed.
  @discardableResult
  public func undo() -> Bool { stepChange(forward: false) != nil }

  /// Reapplies the state last undone. A recorded change clears what can be redone; an event
  /// that fails or changes nothing does not.
  @discardableResult
  public func redo() -> Bool { stepChange(forward: true) != nil }

  /// Forgets every undo and redo step.
  public func clearHistory() { core.withLock { $0.history?.clear() } }

  /// Redoes (`forward`) or undoes the last change; returns the change made, nil when none.
  package func stepChange(forward: Bool) -> MadeChange<State>? {
    let target = core.withLock { core -> State? in
      guard !core.isClosed, var history = core.history else { return nil }
      let target = forward ? history.redo(from: core.state) : history.undo(from: core.state)
      core.history = history
      return target
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
