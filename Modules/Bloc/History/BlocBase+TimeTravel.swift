import Foundation

/// Time travel: a state set from outside as a change of its own, and the changes a persisted
/// bloc's storage retains (``ChangeHistoryStorage``), for a host to list them and return to one.
extension BlocBase {
  /// Sets `state` as a change of its own, caused by `cause`: recorded for undo (clearing what
  /// could be redone), stored and shown like any change. Returns its sequence number; nil when
  /// `state` is the current state (no change) or the bloc is closed.
  ///
  /// ```swift
  /// counter.restore(CounterState(count: 5))  // a change; counter.undo() returns to the count before
  /// ```
  @discardableResult
  public func restore(_ state: State, cause: ChangeCause = .restore) -> UInt64? {
    restoreChange(state, cause: cause)?.sequence
  }

  /// ``restore(_:cause:)``, telling the change it made.
  package func restoreChange(_ state: State, cause: ChangeCause) -> MadeChange<State>? {
    var made: Change<State>?
    guard let sequence = try? apply(state, cause: { cause }, announce: { made = $0 }),
      let made
    else { return nil }
    return MadeChange(sequence: sequence, change: made)
  }

  /// The changes the storage retains for this bloc, as stored, oldest first (the newest is the
  /// stored state): empty unless it is persisted in a ``ChangeHistoryStorage`` keeping history.
  package var retainedChanges: [Data] { persister?.retainedChanges() ?? [] }

  /// How many changes the storage retains at most; 0 when it keeps no history.
  package var retainedChangeLimit: Int { persister?.historyLimit ?? 0 }

  /// The schema version this bloc stores its state with; nil without persistence.
  package var storedSchemaVersion: Int? { persister?.schemaVersion }

  /// The state in one of ``retainedChanges`` (migrated when stored by an older schema version).
  package func storedState(in record: Data) throws -> State {
    guard let persister else {
      throw PersistenceError.unreadable(key: name, reason: "not persisted", keptAs: nil)
    }
    return try persister.decode(record)
  }
}

/// A change a bloc made on request, with its sequence number.
package struct MadeChange<State: Sendable>: Sendable {
  package let sequence: UInt64
  package let change: Change<State>
}
