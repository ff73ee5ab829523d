import Dispatch
import Foundation

/// Where a persisted bloc's states go. A bloc with a state to store stages itself once; the
/// sink takes the newest state (``StagedState/takeForWrite(into:)``) when it writes: at once
/// (``WriteThrough``), or with the next batch of a journal, so that every change made until
/// then shares one write.
package protocol StateSink: Sendable {
  /// `source` has a state to store; take it now or with the next write.
  func stage(_ source: any StagedState)
}

/// A bloc's persister as its sink sees it.
package protocol StagedState: AnyObject, Sendable {
  /// The key its states are stored under.
  var key: String { get }
  /// Appends the newest state not yet written, encoded, to `values` (for a storage that keeps
  /// history, every change since the last write, oldest first, each a value of its own); false
  /// when there is none any more (a rollback dropped it). Call it once per `stage`, and
  /// ``writeEnded(_:)`` once that write is stored or cannot be.
  func takeForWrite(into values: inout StagedValues) -> Bool
  /// The write taken last is stored (nil) or failed.
  func writeEnded(_ error: (any Error)?)
}

/// Where a sink's write takes the values it stores: one buffer for every value of the write
/// (a journal's batch: every bloc's), each value written in place after a copy of the sink's
/// `prefix` (a record header the sink completes afterwards), so that no value is copied on its
/// way to the storage and no buffer is allocated per value.
package struct StagedValues {
  /// The values, one after another, each after a copy of `prefix`.
  package var bytes: [UInt8] = []
  /// Where each value lies in `bytes`, in order (its copy of `prefix` just before it).
  package var values: [Range<Int>] = []
  /// What the sink wants before every value from now on (empty: nothing).
  package var prefix: [UInt8] = []

  package init() {}

  /// Appends the prefix; the value is appended to `bytes` after it, then ended with
  /// ``endValue(from:)`` given the offset returned here.
  package mutating func beginValue() -> Int {
    bytes.append(contentsOf: prefix)
    return bytes.count
  }

  package mutating func endValue(from start: Int) {
    values.append(start..<bytes.count)
  }

  /// How much is written now: what ``cut(to:)`` goes back to.
  package var mark: (bytes: Int, values: Int) { (bytes.count, values.count) }

  /// Drops every value written after `mark` (a write that could not be encoded after all).
  package mutating func cut(to mark: (bytes: Int, values: Int)) {
    bytes.removeSubrange(mark.bytes...)
    values.removeSubrange(mark.values...)
  }

  /// Empties the buffer, keeping its storage (unless a huge write grew it).
  package mutating func removeAll() {
    let keep = bytes.capacity <= 1 << 20
    bytes.removeAll(keepingCapacity: keep)
    // One value (a write of one change) goes by removeLast: removeAll(keepingCapacity:) takes
    // Array's general replaceSubrange, about 80 instructions even for one element.
    if values.count == 1 {
      values.removeLast()
    } else {
      values.removeAll(keepingCapacity: keep)
    }
  }
}

/// The sink of a storage that does not batch (``FileStorage``, one of your own): each staged
/// state is written at once, with ``BlocStorage/write(_:_:completion:)`` when the storage
/// writes asynchronously, else with the blocking ``BlocStorage/write(_:_:)`` on a queue of the
/// bloc's own, off the cooperative pool, one write at a time.
struct WriteThrough: StateSink {
  let storage: any BlocStorage
  let queue: DispatchQueue?

  init<State>(_ persistence: Persistence<State>) {
    storage = persistence.storage
    queue =
      storage.writesAsynchronously ? nil : DispatchQueue(label: "bloc.persist.\(persistence.key)")
  }

  func stage(_ source: any StagedState) {
    var values = StagedValues()
    // The newest value: those before it are for a storage that keeps every change, which is
    // a sink of its own (`JournalStorage`).
    guard source.takeForWrite(into: &values), let newest = values.values.last else { return }
    let data = Data(values.bytes[newest])
    guard let queue else {
      storage.write(source.key, data) { source.writeEnded($0) }
      return
    }
    let storage = storage
    queue.async {
      var failure: (any Error)?
      do { try storage.write(source.key, data) } catch { failure = error }
      source.writeEnded(failure)
    }
  }
}
