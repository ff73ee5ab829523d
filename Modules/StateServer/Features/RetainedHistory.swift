import Foundation
import Wire

/// A feature's changes as its storage retains them (every change is stored as a record of its
/// own, with its seq, cause and time): what `history` lists and `goto` returns to.
struct RetainedHistory {
  /// One retained change: its stored record, parsed, and as stored.
  struct Change {
    let sequence: UInt64
    let record: JSONObject
    let stored: Data

    /// `event`, `undo`, `redo`, `goto`, `restore` or `migration`.
    var cause: String { record["cause"]?.stringValue ?? "" }
  }

  /// Oldest first. Only records stored with a seq and a cause: a state stored before history
  /// was kept has neither, and is not a change that can be listed.
  let changes: [Change]
  /// The feature's seq now.
  let current: UInt64

  init(records: [Data], current: UInt64) {
    var changes: [Change] = []
    changes.reserveCapacity(records.count)
    for stored in records {
      guard case .object(let record)? = try? JSON(parsing: stored), record["cause"] != nil,
        let sequence = record["seq"]?.int64Value, sequence >= 0
      else { continue }
      changes.append(Change(sequence: UInt64(sequence), record: record, stored: stored))
    }
    self.changes = changes
    self.current = max(current, changes.last?.sequence ?? 0)
  }

  /// The oldest seq still retained: the state right after it can be returned to. The current
  /// seq when no change is retained.
  var oldest: UInt64 { changes.first?.sequence ?? current }

  /// `12…57`, for messages.
  var range: String { "\(oldest)…\(current)" }

  /// The retained change `sequence`; nil when it is not retained (too old, in the future, or a
  /// change that was never stored).
  func change(_ sequence: UInt64) -> Change? {
    var low = 0
    var high = changes.count
    while low < high {
      let middle = (low + high) / 2
      if changes[middle].sequence < sequence { low = middle + 1 } else { high = middle }
    }
    return low < changes.count && changes[low].sequence == sequence ? changes[low] : nil
  }

  /// The last `count` changes, oldest first.
  func last(_ count: Int) -> ArraySlice<Change> { changes.suffix(count) }

  /// The changes from seq `sequence` on, oldest first.
  func since(_ sequence: UInt64) -> ArraySlice<Change> {
    changes.drop { $0.sequence < sequence }
  }
}
