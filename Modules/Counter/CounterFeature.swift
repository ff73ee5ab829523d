import BlocCore
import FeatureKit

/// The Counter feature: a persisted count with undo and redo, stepped and bounded by the
/// rules its host gives it (``CounterRulesSource``).
///
/// ```swift
/// registry.register(CounterFeature.self, CounterBloc(rules: rulesFromSettings, storage: storage))
/// ```
public enum CounterFeature: FeatureDescription {
  public typealias Event = CounterEvent
  public typealias State = CounterState
  /// The stable name a host registers the feature under.
  public static let name = "counter"
  /// The storage key of the persisted count.
  public static let storageKey = "counter"
  /// How many undo steps a counter keeps by default.
  public static let historyLimit = HistoryLimit.limit(100)
  public static let summary =
    "A count that steps by Settings.counterStep within Settings' bounds; undo and redo."
}
