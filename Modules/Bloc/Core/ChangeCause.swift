/// Why a bloc's state changed. A journal that keeps history (`JournalStorage`, module
/// `BlocJournal`) stores it with every change, so a host can tell what made each state
/// (`stated`'s `history` and `monitor`).
///
/// ```swift
/// bloc.restore(CounterState(count: 5))  // a change whose cause is .restore
/// ```
public enum ChangeCause: Sendable {
  /// A handler emitted while handling this event.
  case event(any Sendable)
  /// A cubit's `emit`: a change without an event.
  case emit
  /// ``BlocBase/undo()``.
  case undo
  /// ``BlocBase/redo()``.
  case redo
  /// A return to the state right after an earlier change, the one with this sequence number
  /// (the daemon's `goto`, made with ``BlocBase/restore(_:cause:)``).
  case goto(UInt64)
  /// A state set from outside with ``BlocBase/restore(_:cause:)``.
  case restore
  /// A stored state of an older schema version, upgraded when the bloc was created.
  case migration

  /// The cause's name as stored and shown: `event`, `emit`, `undo`, `redo`, `goto`, `restore`
  /// or `migration`.
  public var name: String {
    switch self {
    case .event: "event"
    case .emit: "emit"
    case .undo: "undo"
    case .redo: "redo"
    case .goto: "goto"
    case .restore: "restore"
    case .migration: "migration"
    }
  }
}

/// What is stored with a state besides the state itself: its sequence number, and, when a
/// journal keeps every change, why and when it changed.
struct StoredChange: Sendable {
  let sequence: UInt64
  var cause: ChangeCause?
  /// Milliseconds since 1970 (UTC) when the change was made.
  var time: Int64?

  init(sequence: UInt64, cause: ChangeCause? = nil, time: Int64? = nil) {
    self.sequence = sequence
    self.cause = cause
    self.time = time
  }
}
