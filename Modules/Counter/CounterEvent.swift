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

  /// One kind per case; the bloc handles events in the order they arrive, whatever their kind.
  public enum Kind: Hashable, Sendable { case increment, decrement, reset, set }
  public var kind: Kind {
    switch self {
    case .increment: return .increment
    case .decrement: return .decrement
    case .reset: return .reset
    case .set: return .set
    }
  }
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
