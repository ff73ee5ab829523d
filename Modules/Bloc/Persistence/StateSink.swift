import Dispatch
import Foundation

/// Where a persisted bloc's states go. A bloc with a state to store stages itself once; the
/// sink takes the newest state (``StagedState/takeForWrite()``) when it writes: at once
/// (``WriteThrough``), or with the next batch of a journal, so that every change made until
/// then shares one write.
package protocol StateSink: Sendable {
  /// `source` has a state to store; take it now or with the next write.
  func stage(_ source: any StagedState)
}

/// A bloc's persister as its sink sees it.
package protocol StagedState: AnyObject, Sendable {
  /// The newest state not yet written, encoded; nil when there is none any more (a rollback
  /// dropped it). Call it once per `stage`, and ``StagedWrite/complete(_:)`` once that write
  /// is stored or cannot be.
  func takeForWrite() -> StagedWrite?
  /// The write taken last is stored (nil) or failed; `buffer` is the one it was written in,
  /// handed back for the next (``StagedWrite/complete(_:)`` calls this).
  func writeEnded(_ error: (any Error)?, buffer: [UInt8])
}

/// One state to write under `key`, its stored bytes in `data`; call ``complete(_:)`` once it
/// is stored or cannot be. For a storage that keeps history (``ChangeHistoryStorage``),
/// `earlier` holds the changes made since the last write, before this one, each a value of its
/// own, written first, in order.
///
/// The bytes are plain arrays (no `Data`, two allocations each), and the write's end goes back
/// to its persister, which keeps what the write was about (no closure context per write).
package struct StagedWrite: Sendable {
  package let key: String
  package let data: [UInt8]
  package var earlier: [[UInt8]] = []
  /// The persister the write is for, told of its end.
  let source: any StagedState
  /// The persister's buffer, handed back with the write's end: kept from write to write.
  var buffer: [UInt8] = []

  /// Tells the persister the write is stored (nil) or failed.
  package func complete(_ error: (any Error)?) {
    source.writeEnded(error, buffer: buffer)
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
    guard let write = source.takeForWrite() else { return }
    guard let queue else {
      storage.write(write.key, Data(write.data)) { write.complete($0) }
      return
    }
    let storage = storage
    queue.async {
      var failure: (any Error)?
      do { try storage.write(write.key, Data(write.data)) } catch { failure = error }
      write.complete(failure)
    }
  }
}
