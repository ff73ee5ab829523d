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

  /// The reply line for `final` (``finalOutcome()``), written into `buffer`'s storage.
  func line(_ final: EventOutcome, reusing buffer: consuming [UInt8]) -> [UInt8] {
    RequestDispatcher.outcomeReply(id: id, feature, final, reusing: consume buffer)
  }
}

/// The sessions whose events the current loop turn handled straight through. When the turn
/// ends, after its journal write, each writes its replies
/// (``ClientSession/writeTurnReplies(atTurnEnd:_:)``), in the order of its requests. Only the
/// loop thread touches it (the lock, never contended, keeps the dispatcher `Sendable`).
final class LoopTurn: Sendable {
  private struct Lists {
    var sessions: [ClientSession] = []
    /// The last turn's list, emptied, handed back for reuse.
    var spare: [ClientSession] = []
  }
  private let lists = Locked(Lists())

  /// `session` has its first reply in this turn.
  func add(_ session: ClientSession) {
    lists.withLock { $0.sessions.append(session) }
  }

  /// The turn's sessions, in the order they joined; the list starts afresh. Hand the array
  /// back with ``recycle(_:)``.
  func takeSessions() -> [ClientSession] {
    lists.withLock { lists in
      var taken = lists.spare
      swap(&taken, &lists.sessions)
      lists.spare = []
      return taken
    }
  }

  /// Keeps a list's storage for the next turn.
  func recycle(_ sessions: consuming [ClientSession]) {
    var emptied = sessions
    emptied.removeAll(keepingCapacity: emptied.capacity <= 4096)
    lists.withLock { $0.spare = emptied }
  }
}
