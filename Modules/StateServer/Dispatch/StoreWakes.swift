import BlocCore

/// The loop's waits for the storage on behalf of turn replies whose changes were not stored by
/// their turn's end (under `--sync always` the journal's writer syncs them beside the loop):
/// a wait per feature for the earliest change awaited (another only for an earlier one), so a
/// batch that stores the changes of many clients wakes the loop once, and the loop writes all
/// their replies (``TurnReplies``), rather than each client's reply being written on the
/// storage's thread, with a lock trip and a wake-up of the loop apiece.
///
/// A wait ends when its change is stored (or its write failed): the loop is signalled, hands
/// every waiting connection back to the dispatcher, which writes what is stored and waits
/// again, for the first change still on its way, for the connections still waiting.
final class StoreWakes: Sendable {
  /// The waits registered and not ended: their feature and change.
  private let waiting = Locked<[(feature: ObjectIdentifier, sequence: UInt64)]>([])

  /// Signals the loop (``TurnConnections/storeSignal``) once `sequence` of `feature` is stored
  /// or failed, unless a wait for that change or an earlier one of `feature` is registered
  /// already: its end brings the loop back, which then waits for what is still on its way.
  func wake(_ connections: TurnConnections, when feature: Feature, stores sequence: UInt64) {
    let id = ObjectIdentifier(feature)
    let registers = waiting.withLock { waits -> Bool in
      guard !waits.contains(where: { $0.feature == id && $0.sequence <= sequence }) else {
        return false
      }
      waits.append((id, sequence))
      return true
    }
    guard registers else { return }
    let signal = connections.storeSignal
    // Called at once when the change is stored already: the loop then looks again on its
    // next pass.
    feature.whenStored(sequence) { [waiting] _ in
      // Forgotten before the signal: the pass it causes may register the next wait.
      waiting.withLock { waits in
        if let index = waits.firstIndex(where: { $0.feature == id && $0.sequence == sequence }) {
          waits.remove(at: index)
        }
      }
      signal()
    }
  }
}
