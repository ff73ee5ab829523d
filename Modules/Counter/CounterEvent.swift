import BlocCore
import FeatureKit

/// What can be done to the count.
///
/// ```swift
/// await counter.send(.increment)
/// await counter.send(.set(5))
/// ```
/// JSON: `{"type":"increment"}`, `{"type":"decrement"}`, `{"type":"reset"}`,
/// `{"type":"set","value":5}`.
public enum CounterEvent: BlocEvent, Hashable {
  /// Adds the step; refused past the maximum.
  case increment
  /// Subtracts the step; refused past the minimum.
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

extension CounterEvent: DeclaredEvent {
  /// The events' JSON, validation and `describe` schema, declared once.
  public static let declaration = EventDeclaration<CounterEvent>(
    feature: CounterFeature.name,
    .event("increment", "Adds counterStep; refused if the count would exceed counterMaximum.") {
      .increment
    },
    .event(
      "decrement", "Subtracts counterStep; refused if the count would go below counterMinimum."
    ) { .decrement },
    .event("reset", "Sets the count to 0, or to the nearest bound when 0 is outside them.") {
      .reset
    },
    .event(
      "set", "Sets the count; refused outside the bounds.",
      .integer("value", "The new count.", example: 5), CounterEvent.set))
}
