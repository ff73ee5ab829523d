/// The counter's rules for one moment's settings, as pure functions (the handling of each
/// event, ``count(after:from:)``, is beside the events in CounterEvent.swift).
///
/// ```swift
/// let rules = CounterRules(step: 2, minimum: nil, maximum: 5)
/// try rules.count(after: .increment, from: 3)  // 5
/// try rules.count(after: .increment, from: 5)  // throws: count would exceed the maximum 5
/// ```
/// Bounds are checked in the direction of the move: when a bound changes so that the count is
/// outside it, the count can still move back toward the bounds (a decrement from 50 under a new
/// maximum of 10 is fine; an increment is not).
public struct CounterRules: Sendable, Equatable {
  public var step: Int
  public var minimum: Int?
  public var maximum: Int?

  public init(step: Int = 1, minimum: Int? = nil, maximum: Int? = nil) {
    self.step = step
    self.minimum = minimum
    self.maximum = maximum
  }

  /// 0 when it is within the bounds, else the bound nearest to it.
  public var resetTarget: Int {
    if let minimum, minimum > 0 { return minimum }
    if let maximum, maximum < 0 { return maximum }
    return 0
  }

  /// `next`, unless it is above the maximum.
  func checkedAbove(_ next: Int) throws(CounterError) -> Int {
    if let maximum, next > maximum { throw .aboveMaximum(maximum) }
    return next
  }

  /// `next`, unless it is below the minimum.
  func checkedBelow(_ next: Int) throws(CounterError) -> Int {
    if let minimum, next < minimum { throw .belowMinimum(minimum) }
    return next
  }
}
