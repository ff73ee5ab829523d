import BlocCore
import FeatureKit
import Wire

/// The features a daemon serves, by name. The server knows features only through here, and
/// every list of features (`features`, `describe`, the documentation's tests) comes from it.
///
/// Adding a feature is one line:
///
/// ```swift
/// let registry = FeatureRegistry()
/// registry.register(CounterFeature.self, CounterBloc(storage: storage))
/// ```
///
/// Register every feature before making the dispatcher that serves them; names are unique.
public final class FeatureRegistry: Sendable {
  private let entries = Locked<Entries>(Entries())

  private struct Entries {
    var features: [Feature] = []
    /// Set once a dispatcher serves them (``servedFeatures()``): no feature may be added then.
    var served = false
  }

  public init() {}

  /// Serves `bloc` as the feature `description` describes: its events (decoded and validated
  /// by their declaration), its state (written by its declaration), its history when it keeps
  /// one, and its updates for watch.
  public func register<Description: FeatureDescription>(
    _ description: Description.Type, _ bloc: Bloc<Description.Event, Description.State>
  ) {
    // The stored state's reader is made here, where the state's type is known: a release
    // build specialises it in the caller's module (cross-module optimisation), so a `get`
    // reads the stored state without a generic metadata lookup.
    insert(
      Feature(
        description, bloc: bloc,
        storedState: {
          // Sequence and state read together, so the state belongs to that number.
          let stored = bloc.storedSnapshot
          return (stored.sequence, stored.state)
        }))
  }

  private func insert(_ feature: Feature) {
    let name = feature.name
    precondition(Self.isValidName(name), "feature name '\(name)' must be [A-Za-z0-9._-]+")
    entries.withLock { entries in
      precondition(
        !entries.served,
        "feature '\(name)' is registered after the dispatcher was made; register every feature first"
      )
      precondition(
        !entries.features.contains { $0.name == name }, "feature '\(name)' is registered twice")
      entries.features.append(feature)
    }
  }

  /// Every feature, in registration order.
  public var features: [Feature] { entries.withLock { $0.features } }

  /// Every feature, fixed from now on: a dispatcher keeps them, to read them without a lock.
  func servedFeatures() -> [Feature] {
    entries.withLock { entries in
      entries.served = true
      return entries.features
    }
  }

  /// The feature named `name`, or nil.
  public func feature(named name: String) -> Feature? {
    entries.withLock { entries in entries.features.first { $0.name == name } }
  }

  /// The names of every feature, in registration order.
  public var names: [String] { features.map(\.name) }

  /// Waits until every feature's bloc has finished the work started so far.
  public func settleAll() async {
    for feature in features { await feature.settled() }
  }

  /// Closes every bloc (cancelling what still runs) and waits until their states are stored.
  /// Last registered first, so a feature closes before those it was given at creation.
  public func closeAll() async {
    for feature in features.reversed() { await feature.close() }
  }

  static func isValidName(_ name: String) -> Bool {
    !name.isEmpty
      && name.utf8.allSatisfy { byte in
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
          || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2E || byte == 0x2D || byte == 0x5F
      }
  }
}
