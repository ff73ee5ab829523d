/// What a journal keeps in memory: every key's value, and the values last written under each
/// key, oldest first (``JournalStorage/Limits/history``). Updated together after each batch,
/// in one trip to their lock.
struct KeptValues: Sendable {
  private(set) var values: [String: [UInt8]]
  private(set) var retained: [String: RetainedValues]
  /// Where the last key kept is in both dictionaries, while no key came or went since: a
  /// daemon's batches mostly hold one bloc's key after another's, the same few keys, so a key
  /// is hashed when it comes back after another, not for every batch.
  private var last: LastKey?

  private struct LastKey {
    let key: String
    let value: Dictionary<String, [UInt8]>.Index
    let history: Dictionary<String, RetainedValues>.Index?
  }

  private typealias Slots = (
    value: Dictionary<String, [UInt8]>.Index?, history: Dictionary<String, RetainedValues>.Index?
  )

  init(values: [String: [UInt8]], retained: [String: RetainedValues] = [:]) {
    self.values = values
    self.retained = retained
  }

  /// Makes the values a batch just wrote their keys' values, and the newest of their keys'
  /// history when `history` values are kept per key; a removed key's history goes with it.
  /// `runs` are the batch's records, a run of them per key in turn (``JournalStorage/Batch``),
  /// whose values lie in `bytes` at `ranges`.
  mutating func keep(
    _ runs: [JournalStorage.Batch.Run], _ ranges: [Range<Int>], _ bytes: [UInt8], history: Int
  ) {
    bytes.withUnsafeBytes { bytes in
      for run in runs {
        guard !run.removal else {
          values[run.key] = nil
          retained[run.key] = nil
          last = nil
          continue
        }
        guard let newest = run.records.last.map({ ranges[$0] }) else { continue }
        let found = slots(of: run.key, history: history)
        // Only the last of a run is its key's value; each is in its history.
        let value = UnsafeRawBufferPointer(rebasing: bytes[newest])
        if let slot = found.value {
          // Into the storage of the value it replaces, when no snapshot shares that one.
          values.values[slot].overwrite(with: value)
        } else {
          values[run.key] = Array(value)
          last = nil
        }
        guard history > 0 else { continue }
        if let slot = found.history {
          retained.values[slot].append(ranges[run.records], of: bytes)
        } else {
          var values = RetainedValues(limit: history)
          values.append(ranges[run.records], of: bytes)
          retained[run.key] = values
          last = nil
        }
      }
    }
  }

  /// Where `key` is in both dictionaries (nil where it is not), remembered for the next call.
  private mutating func slots(of key: String, history: Int) -> Slots {
    if let last, last.key == key { return (last.value, last.history) }
    let value = values.index(forKey: key)
    let kept = history > 0 ? retained.index(forKey: key) : nil
    if let value, history == 0 || kept != nil {
      last = LastKey(key: key, value: value, history: kept)
    } else {
      last = nil
    }
    return (value, kept)
  }
}

extension Array where Element == UInt8 {
  /// Makes this `value`: a copy over the bytes when it has as many (a state's usual change),
  /// else Array's general replaceSubrange.
  fileprivate mutating func overwrite(with value: UnsafeRawBufferPointer) {
    guard count == value.count, count > 0 else {
      replaceSubrange(startIndex..., with: value)
      return
    }
    withUnsafeMutableBytes { $0.copyMemory(from: value) }
  }
}
