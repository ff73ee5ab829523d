import BlocCore
import Wire

/// The reply to an event handled straight through, on the loop thread
/// (``Bloc/handleInline(_:)``): written once the change it made is stored (after the loop turn's
/// journal write), with what that write did to it.
struct TurnReply: Sendable {
  let id: RequestID?
  let feature: Feature
  /// The handler's outcome.
  let outcome: EventOutcome
  /// The sequence number of the event's last change, which waits for storage.
  let changed: UInt64

  /// The outcome to reply with once it is known: the handler's, or the storage's error when
  /// its change could not be stored (a refused change is never replied as ok). Nil while the
  /// change is on its way.
  func finalOutcome() -> EventOutcome? {
    switch feature.storeStatus(of: changed) {
    case .stored: return outcome
    case .failed(let error): return outcome.isHandled ? .failed(error) : outcome
    case .pending: return nil
    }
  }

  /// Writes the reply for `final` (``finalOutcome()``) after the lines in `buffer`, showing
  /// the feature's stored state (read once per turn end: `stored`).
  func write(
    _ final: EventOutcome, _ stored: inout StoredStates, into buffer: inout [UInt8]
  ) {
    do {
      let snapshot = try stored.snapshot(of: feature, including: changed)
      var lines: [UInt8] = []
      swap(&lines, &buffer)
      buffer = RequestDispatcher.outcomeReply(
        id: id, final, snapshot, appendingTo: consume lines)
    } catch {
      buffer.append(contentsOf: RequestDispatcher.encodingFailure(id: id, feature, error))
    }
  }
}

/// The stored states the replies of a turn's end show: each feature's read once, while it
/// includes the change a reply is about (its replies all show the newest stored state, as a
/// reply produced one by one would, since the turn's batch was written before).
struct StoredStates {
  private var last: (feature: Feature, snapshot: StateSnapshot)?

  /// The newest stored state of `feature`, read again unless the one read last for it holds
  /// the change `sequence` (a change that could not be stored is never in it).
  mutating func snapshot(of feature: Feature, including sequence: UInt64) throws -> StateSnapshot {
    if let last, last.feature === feature, last.snapshot.sequence >= sequence {
      return last.snapshot
    }
    let snapshot = try feature.storedSnapshot()
    last = (feature, snapshot)
    return snapshot
  }
}
