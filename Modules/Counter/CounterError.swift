/// Why a counter event was refused. The count is unchanged.
///
/// ```swift
/// if case .failed(let error) = await counter.send(.increment) {
///   print(error)  // count would exceed the maximum 10
/// }
/// ```
public enum CounterError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The count would go above this maximum (the rules' maximum, or `Int.max` when unset).
  case aboveMaximum(Int)
  /// The count would go below this minimum (the rules' minimum, or `Int.min` when unset).
  case belowMinimum(Int)

  public var description: String {
    switch self {
    case .aboveMaximum(let maximum): return "count would exceed the maximum \(maximum)"
    case .belowMinimum(let minimum): return "count would go below the minimum \(minimum)"
    }
  }
}
