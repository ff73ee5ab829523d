import BlocCore

/// What a host needs to know to serve a feature: its name, a one-line summary, and its event
/// and state types. A feature module declares one, and the host registers its bloc with it:
///
/// ```swift
/// public enum CounterFeature: FeatureDescription {
///   public typealias Event = CounterEvent
///   public typealias State = CounterState
///   public static let name = "counter"
///   public static let summary = "A count with undo and redo."
/// }
/// // in the host:
/// registry.register(CounterFeature.self, CounterBloc(rules: …, storage: storage))
/// ```
public protocol FeatureDescription {
  associatedtype Event: DeclaredEvent
  associatedtype State: DeclaredState
  /// The stable name clients use: letters, digits, `-`, `_` and `.`.
  static var name: String { get }
  /// One line for `features` and `describe`.
  static var summary: String { get }
}
