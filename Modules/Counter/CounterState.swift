import BlocCore
import FeatureKit

/// The count. JSON: `{"count":3}`.
public struct CounterState: PersistableState, DeclaredState, Hashable {
  public var count: Int

  public init(count: Int = 0) { self.count = count }

  /// Version 1: `{"count": Int}`.
  public static var schemaVersion: Int { 1 }

  public static let declaration = StateDeclaration(
    initial: CounterState(),
    .field("count", \.count, "The count; within the Settings bounds unless they changed."))
}
