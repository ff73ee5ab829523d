/// A change from one state to the next, reported before the new state is seen
/// by subscribers.
///
/// ```swift
/// override func onChange(_ change: Change<Int>) {
///   print("\(change.current) → \(change.next)")
/// }
/// ```
public struct Change<State: Sendable>: Sendable {
  /// The state before the change.
  public let current: State
  /// The state after the change.
  public let next: State

  public init(current: State, next: State) {
    self.current = current
    self.next = next
  }
}

extension Change: Equatable where State: Equatable {}
/// Lets tests and observers collect changes in sets: `Set(changes).count`.
extension Change: Hashable where State: Hashable {}

extension Change: CustomStringConvertible {
  public var description: String { "Change(\(current) → \(next))" }
}

/// A change caused by an event: the state before, the event, and the state after.
public struct Transition<Event: Sendable, State: Sendable>: Sendable {
  public let current: State
  public let event: Event
  public let next: State

  public init(current: State, event: Event, next: State) {
    self.current = current
    self.event = event
    self.next = next
  }
}

extension Transition: Equatable where Event: Equatable, State: Equatable {}
extension Transition: Hashable where Event: Hashable, State: Hashable {}

extension Transition: CustomStringConvertible {
  public var description: String { "Transition(\(current) —\(event)→ \(next))" }
}
