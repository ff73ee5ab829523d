import BlocCore

/// What can be done to the count.
///
/// ```swift
/// await counter.send(.increment)
/// await counter.send(.set(5))
/// ```
/// JSON: `{"type":"increment"}`, `{"type":"decrement"}`, `{"type":"reset"}`,
/// `{"type":"set","value":5}`.
public enum CounterEvent: BlocEvent, Hashable {
  /// Adds `counterStep`; refused past `counterMaximum`.
  case increment
  /// Subtracts `counterStep`; refused past `counterMinimum`.
  case decrement
  /// Back to 0, or to the nearest bound when 0 is outside the bounds.
  case reset
  /// Sets the count; refused outside the bounds.
  case set(Int)

  /// All counter events change the count, so they share one handler and one sequential lane:
  /// an increment and a decrement added at the same time never lose an update.
  public enum Kind: Hashable, Sendable { case count }
  public var kind: Kind { .count }
}
