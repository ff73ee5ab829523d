import BlocCore
import FeatureKit

/// Code written once for any feature, run with one registered feature's bloc and its types:
/// how a test replays a feature it knows only by name, in the daemon's own composition
/// (`statectl export-test` writes such tests).
///
/// ```swift
/// struct PrintState: FeatureVisitor {
///   func visit<Event: DeclaredEvent, State: DeclaredState>(_ bloc: Bloc<Event, State>) async throws {
///     print(bloc.state)
///   }
/// }
/// let found = try await registry.visit("counter", PrintState())
/// ```
public protocol FeatureVisitor: Sendable {
  func visit<Event: DeclaredEvent, State: DeclaredState>(_ bloc: Bloc<Event, State>) async throws
}

/// Runs a visitor with one feature's bloc, its types known: made where the feature is
/// registered.
public typealias FeatureOpener = @Sendable (any FeatureVisitor) async throws -> Void

extension FeatureRegistry {
  /// Runs `visitor` with the bloc of the feature named `name`; false (and nothing run) when no
  /// feature has that name.
  @discardableResult
  public func visit(_ name: String, _ visitor: some FeatureVisitor) async throws -> Bool {
    guard let feature = feature(named: name) else { return false }
    try await feature.open(visitor)
    return true
  }
}
