/// The result of a bloc test: empty ``failures`` means it passed.
///
/// From XCTest: `XCTAssertTrue(report.passed, report.description)`.
public struct BlocTestReport<State: Sendable>: Sendable, CustomStringConvertible {
  /// Every state the bloc produced during `act`, after `skip`.
  public let states: [State]
  /// Every error the bloc reported.
  public let errors: [any Error]
  /// One readable message per mismatch.
  public let failures: [String]

  public var passed: Bool { failures.isEmpty }
  public var description: String {
    passed ? "bloc test passed" : failures.joined(separator: "\n\n")
  }
}

/// Lines comparing expected with actual states, marking each position.
func stateDiff<State: Equatable>(expected: [State], actual: [State]) -> String? {
  guard expected != actual else { return nil }
  var lines = ["states differ: expected \(expected.count), got \(actual.count)"]
  for index in 0..<max(expected.count, actual.count) {
    let want = index < expected.count ? String(describing: expected[index]) : nil
    let got = index < actual.count ? String(describing: actual[index]) : nil
    if index < expected.count, index < actual.count, expected[index] == actual[index] {
      lines.append("  ✓ [\(index)] \(want!)")
    } else {
      lines.append("  ✗ [\(index)] expected: \(want ?? "(nothing: an extra state)")")
      lines.append("         actual:   \(got ?? "(missing)")")
    }
  }
  return lines.joined(separator: "\n")
}
