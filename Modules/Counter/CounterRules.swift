/// The counter's rules for one moment's settings, as pure functions.
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

  /// The count after `event`, or the reason it is refused.
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

  /// 0 when it is within the bounds, else the bound nearest to it.
  public var resetTarget: Int {
    if let minimum, minimum > 0 { return minimum }
    if let maximum, maximum < 0 { return maximum }
    return 0
  }

  private func checkedAbove(_ next: Int) throws(CounterError) -> Int {
    if let maximum, next > maximum { throw .aboveMaximum(maximum) }
    return next
  }

  private func checkedBelow(_ next: Int) throws(CounterError) -> Int {
    if let minimum, next < minimum { throw .belowMinimum(minimum) }
    return next
  }
}
