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
///
/// An event is written in this file three times: its case, its declared JSON, its handling
/// (the `switch` below). Forgetting the handling does not compile; forgetting the declaration
/// fails the conformance test every registered feature gets (FeatureConformanceTests).
public enum CounterEvent: BlocEvent, Hashable {
  /// Adds the step; refused past the maximum.
  case increment
  /// Subtracts the step; refused past the minimum.
  case decrement
  /// Back to 0, or to the nearest bound when 0 is outside the bounds.
  case reset
  /// Sets the count; refused outside the bounds.
  case set(Int)
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

extension CounterRules {
  /// The count after `event`, or why it is refused: the handling of every event, in one
  /// exhaustive `switch` (the bloc's reducer calls it with the rules of the moment).
  public func count(after event: CounterEvent, from count: Int) throws(CounterError) -> Int {
    switch event {
    case .increment:
      let (next, overflow) = count.addingReportingOverflow(step)
      if overflow { throw .aboveMaximum(maximum ?? .max) }
      return try checkedAbove(next)
    case .decrement:
      let (next, overflow) = count.subtractingReportingOverflow(step)
      if overflow { throw .belowMinimum(minimum ?? .min) }
      return try checkedBelow(next)
    case .reset:
      return resetTarget
    case .set(let value):
      return try checkedBelow(checkedAbove(value))
    }
  }
}
