import BlocCore

/// The Counter feature: a persisted count with undo and redo, stepped and bounded by Settings.
///
/// ```swift
/// let counter = CounterBloc(settings: settingsBloc, storage: storage)
/// // the host registers it under CounterFeature.name
/// ```
public enum CounterFeature {
  /// The stable name a host registers the feature under.
  public static let name = "counter"
  /// The storage key of the persisted count.
  public static let storageKey = "counter"
  /// How many undo steps a counter keeps by default.
  public static let historyLimit = HistoryLimit.limit(100)
  /// One line for a host's `describe`.
  public static let summary =
    "A count that steps by Settings.counterStep within Settings' bounds; undo and redo."
}
