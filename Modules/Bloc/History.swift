/// How many past states an undoable bloc keeps.
///
/// ```swift
/// super.init(initialState: 0, history: .limit(100))
/// ```
public struct HistoryLimit: Sendable, Equatable {
  /// The most undo steps kept; older ones are forgotten first.
  public let count: Int

  /// At most `count` undo steps (at least 1).
  public static func limit(_ count: Int) -> HistoryLimit { HistoryLimit(count: max(1, count)) }
  /// Keeps every step: memory grows with every change.
  public static let unlimited = HistoryLimit(count: Int.max)
}

/// The undo and redo stacks. An equal state is never recorded (the bloc only records real
/// changes), and a new change clears the redo stack.
struct History<State> {
  let limit: HistoryLimit
  private(set) var past: [State] = []
  private(set) var future: [State] = []

  init(limit: HistoryLimit) { self.limit = limit }

  mutating func record(_ previous: State) {
    past.append(previous)
    if past.count > limit.count { past.removeFirst(past.count - limit.count) }
    future.removeAll()
  }

  mutating func undo(from current: State) -> State? {
    guard let previous = past.popLast() else { return nil }
    future.append(current)
    return previous
  }

  mutating func redo(from current: State) -> State? {
    guard let next = future.popLast() else { return nil }
    past.append(current)
    return next
  }

  mutating func clear() {
    past.removeAll()
    future.removeAll()
  }
}

extension BlocBase {
  /// Whether this bloc keeps history for undo and redo (it was created with a `history` limit).
  public var keepsHistory: Bool { core.withLock { $0.history != nil } }

  /// Whether ``undo()`` would change the state.
  public var canUndo: Bool { core.withLock { !($0.history?.past.isEmpty ?? true) } }
  /// Whether ``redo()`` would change the state.
  public var canRedo: Bool { core.withLock { !($0.history?.future.isEmpty ?? true) } }

  /// Returns to the previous state. False when there is nothing to undo, the bloc keeps no
  /// history, or it is closed.
  @discardableResult
  public func undo() -> Bool { step { history, current in history.undo(from: current) } }

  /// Reapplies the state last undone. A new change clears what can be redone.
  @discardableResult
  public func redo() -> Bool { step { history, current in history.redo(from: current) } }

  /// Forgets every undo and redo step.
  public func clearHistory() { core.withLock { $0.history?.clear() } }

  private func step(_ move: (inout History<State>, State) -> State?) -> Bool {
    let target = core.withLock { core -> State? in
      guard !core.isClosed, var history = core.history else { return nil }
      let target = move(&history, core.state)
      core.history = history
      return target
    }
    guard let target else { return false }
    return (try? apply(target, recordHistory: false)) != nil
  }
}
