import Counter
import Testing

/// The counter's rules without a bloc.
@Suite struct CounterRulesTests {
  @Test func stepsBothWays() throws {
    let rules = CounterRules(step: 3)
    #expect(try rules.count(after: .increment, from: 0) == 3)
    #expect(try rules.count(after: .decrement, from: 0) == -3)
    #expect(try rules.count(after: .set(42), from: 0) == 42)
  }

  @Test func refusesPastEitherBound() {
    let rules = CounterRules(step: 2, minimum: -5, maximum: 10)
    #expect(throws: CounterError.aboveMaximum(10)) { try rules.count(after: .increment, from: 9) }
    #expect(throws: CounterError.belowMinimum(-5)) { try rules.count(after: .decrement, from: -4) }
    #expect(throws: CounterError.aboveMaximum(10)) { try rules.count(after: .set(11), from: 0) }
    #expect(throws: CounterError.belowMinimum(-5)) { try rules.count(after: .set(-6), from: 0) }
    #expect((try? rules.count(after: .increment, from: 8)) == 10, "reaching a bound is fine")
    #expect("\(CounterError.aboveMaximum(10))" == "count would exceed the maximum 10")
    #expect("\(CounterError.belowMinimum(-5))" == "count would go below the minimum -5")
  }

  @Test func aCountOutsideNewBoundsCanMoveBackTowardThem() throws {
    let rules = CounterRules(step: 1, minimum: 0, maximum: 10)
    #expect(try rules.count(after: .decrement, from: 50) == 49)
    #expect(throws: CounterError.aboveMaximum(10)) { try rules.count(after: .increment, from: 50) }
    #expect(try rules.count(after: .increment, from: -7) == -6)
    #expect(throws: CounterError.belowMinimum(0)) { try rules.count(after: .decrement, from: -7) }
  }

  @Test func resetGoesToZeroOrTheNearestBound() throws {
    #expect(try CounterRules().count(after: .reset, from: 7) == 0)
    #expect(try CounterRules(minimum: -3, maximum: 3).count(after: .reset, from: 2) == 0)
    #expect(try CounterRules(minimum: 5, maximum: 9).count(after: .reset, from: 7) == 5)
    #expect(try CounterRules(minimum: -9, maximum: -2).count(after: .reset, from: -7) == -2)
  }

  @Test func overflowIsRefusedNotTrapped() {
    #expect(throws: CounterError.aboveMaximum(.max)) {
      try CounterRules(step: 2).count(after: .increment, from: .max - 1)
    }
    #expect(throws: CounterError.belowMinimum(.min)) {
      try CounterRules(step: .max).count(after: .decrement, from: -2)
    }
  }
}
