/// What a journal keeps in memory: every key's value, and the values last written under each
/// key, oldest first (``JournalStorage/Limits/history``). Updated together after each batch,
/// in one trip to their lock.
struct KeptValues: Sendable {
  var values: [String: [UInt8]]
  var retained: [String: RetainedValues] = [:]

  /// Makes the values a batch just wrote (`changes`, their bytes in `bytes`) their keys'
  /// values, and the newest of their keys' history when `history` values are kept per key; a
  /// removed key's history goes with it.
  mutating func keep(
    _ changes: [(key: String, value: Range<Int>?)], _ bytes: [UInt8], history: Int
  ) {
    // A bloc's changes come one after another: only the last of a run of one key stays.
    for index in changes.indices
    where index + 1 == changes.count || changes[index + 1].key != changes[index].key {
      let change = changes[index]
      guard let range = change.value else {
        values[change.key] = nil
        continue
      }
      // Into the storage of the value it replaces, when no snapshot shares that one.
      if let slot = values.index(forKey: change.key) {
        values.values[slot].removeAll(keepingCapacity: true)
        values.values[slot].append(contentsOf: bytes[range])
      } else {
        values[change.key] = Array(bytes[range])
      }
    }
    if history > 0 { retain(changes, bytes, limit: history) }
  }

  private mutating func retain(
    _ changes: [(key: String, value: Range<Int>?)], _ bytes: [UInt8], limit: Int
  ) {
    // Where the key of the change before is, while no key came or went: a bloc's changes come
    // one after another, so its key is looked up once per batch.
    var last: (key: String, index: Dictionary<String, RetainedValues>.Index)?
    for change in changes {
      guard let range = change.value else {
        retained[change.key] = nil
        last = nil
        continue
      }
      let value = bytes[range]
      // In place, and without `subscript(_:default:)`, whose default is a closure allocated on
      // every call.
      if let last, last.key == change.key {
        retained.values[last.index].append(value)
      } else if let index = retained.index(forKey: change.key) {
        retained.values[index].append(value)
        last = (change.key, index)
      } else {
        var history = RetainedValues(limit: limit)
        history.append(value)
        retained[change.key] = history
        last = nil
      }
    }
  }
}
