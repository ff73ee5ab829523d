import Foundation

/// A storage that keeps, beside each key's value, the values last written under it
/// (`JournalStorage`, module `BlocJournal`). A bloc persisted there stores every change as a
/// value of its own, with its sequence number, ``ChangeCause`` and time, so that its history
/// survives restarts:
///
/// ```swift
/// let storage = try JournalStorage(directory: directory, limits: .init(history: 1000))
/// let counter = CounterBloc(storage: storage)
/// storage.history("counter")  // the stored changes, oldest first; the newest is the state now
/// ```
public protocol ChangeHistoryStorage: BlocStorage {
  /// How many values are kept per key; 0 keeps none (a bloc then stores only the newest state
  /// of each write).
  var historyLimit: Int { get }
  /// The values last written under `key`, oldest first: the last one is its value now.
  func history(_ key: String) -> [Data]
}
