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
