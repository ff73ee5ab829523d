import BlocCore

/// The count. JSON: `{"count":3}`.
public struct CounterState: PersistableState, DescribedState, Hashable {
  public var count: Int

  public init(count: Int = 0) { self.count = count }

  /// Version 1: `{"count": Int}`.
  public static var schemaVersion: Int { 1 }

  public static var shape: [FieldSchema] {
    [FieldSchema("count", .integer, "The count; within the Settings bounds unless they changed.")]
  }
}
