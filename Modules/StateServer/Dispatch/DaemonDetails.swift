import BlocCore
import BlocJournal

/// What the daemon's `info` reports beyond what the dispatcher sees itself: where it listens,
/// where its state lives and the journal holding it. Given by the program that hosts the
/// dispatcher (`stated`), which alone knows them.
///
/// ```swift
/// let details = DaemonDetails(
///   socketPath: listener.path, stateDirectory: stateDirectory, storage: storage)
/// let dispatcher = RequestDispatcher(registry: registry, version: "0.1.0", details: details)
/// ```
public struct DaemonDetails: Sendable {
  /// The socket the daemon listens on; nil when unknown (a dispatcher under test).
  public var socketPath: String?
  /// The state directory; nil when unknown.
  public var stateDirectory: String?
  /// The journal every feature's state is stored in, for its `--sync` policy, file, size and
  /// newest snapshot; nil when the features store nothing.
  public var storage: JournalStorage?

  public init(
    socketPath: String? = nil, stateDirectory: String? = nil, storage: JournalStorage? = nil
  ) {
    self.socketPath = socketPath
    self.stateDirectory = stateDirectory
    self.storage = storage
  }
}
