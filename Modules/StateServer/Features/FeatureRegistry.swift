import BlocCore
import Wire

/// The features a daemon serves, by name. The server knows features only through here.
///
/// Adding a feature is one line:
///
/// ```swift
/// let registry = FeatureRegistry()
/// registry.register("counter", counterBloc)
/// registry.register("settings", settingsBloc, summary: "Theme, step and other preferences.")
/// ```
///
/// Register every feature before the server starts; names are unique.
public final class FeatureRegistry: Sendable {
  private let entries = Locked<[Feature]>([])

  public init() {}

  /// Serves `bloc` under `name`: its events (validated against `E.schema`), its state (encoded
  /// with `JSONEncoder`, sorted keys), its history when it keeps one, and its updates for watch.
  ///
  /// - Parameters:
  ///   - name: the `"feature"` clients use; letters, digits, `-`, `_` and `.`.
  ///   - summary: one line for `features`; defaults to the bloc's name.
  public func register<E: DescribedEvent, S: DescribedState>(
    _ name: String, _ bloc: Bloc<E, S>, summary: String? = nil
  ) {
    precondition(Self.isValidName(name), "feature name '\(name)' must be [A-Za-z0-9._-]+")
    let feature = Feature(name: name, bloc: bloc, summary: summary ?? bloc.name)
    entries.withLock { entries in
      precondition(
        !entries.contains { $0.name == name }, "feature '\(name)' is registered twice")
      entries.append(feature)
    }
  }

  /// Every feature, in registration order.
  public var features: [Feature] { entries.withLock { $0 } }

  /// The feature named `name`, or nil.
  public func feature(named name: String) -> Feature? {
    entries.withLock { entries in entries.first { $0.name == name } }
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
