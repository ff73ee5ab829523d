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
/// journal keeps every change, why and when it changed. The cause is kept taken apart (its
/// name, `goto`'s target, the event): the record's writer reads plain fields, not the enum,
/// whose every read copies the event through the enum's value witnesses.
struct StoredChange: Sendable {
  /// Which cause, as written (`StoredRecord`'s openings, in ``ChangeCause``'s order).
  enum Kind: UInt8 { case none, event, emit, undo, redo, goto, restore, migration }

  let sequence: UInt64
  let kind: Kind
  /// `goto`'s target (0 for any other cause).
  let target: UInt64
  /// `event`'s event (`()` for any other cause).
  let event: any Sendable
  /// Milliseconds since 1970 (UTC) when the change was made.
  let time: Int64?

  init(sequence: UInt64) {
    self.sequence = sequence
    kind = .none
    target = 0
    event = ()
    time = nil
  }

  /// A change an event made: the event boxed once, straight into the record (no
  /// ``ChangeCause`` in between, whose copy copies the event through its value witnesses).
  init<Event: Sendable>(sequence: UInt64, event: Event, time: Int64?) {
    self.sequence = sequence
    kind = .event
    target = 0
    self.event = event
    self.time = time
  }

  init(sequence: UInt64, cause: ChangeCause, time: Int64?) {
    self.sequence = sequence
    self.time = time
    var target: UInt64 = 0
    var event: any Sendable = ()
    switch cause {
    case .event(let value):
      kind = .event
      event = value
    case .emit: kind = .emit
    case .undo: kind = .undo
    case .redo: kind = .redo
    case .goto(let sequence):
      kind = .goto
      target = sequence
    case .restore: kind = .restore
    case .migration: kind = .migration
    }
    self.target = target
    self.event = event
  }
}
