/// The values last written under one key, oldest first, at most `limit` of them: the oldest
/// goes when a new one comes. They lie one after another in one byte log, so that keeping a
/// value copies its bytes and, once the log has grown, allocates nothing. Values that fell off
/// stay in front until they are as many as the limit, then go in one move, so appending costs
/// O(1) amortised.
struct RetainedValues: Sendable {
  let limit: Int
  /// Every value kept, and those fallen off in front of them, one after another.
  private var bytes: [UInt8] = []
  /// Where each value ends in `bytes`; each starts where the one before it ends (the first at 0).
  private var ends: [Int] = []
  /// How many values in front fell off.
  private var first = 0

  init(limit: Int) { self.limit = max(1, limit) }

  mutating func append(_ value: some Collection<UInt8>) {
    bytes.append(contentsOf: value)
    ends.append(bytes.count)
    guard ends.count - first > limit else { return }
    first += 1
    if first >= max(limit, 16) {
      let gone = ends[first - 1]
      bytes.removeSubrange(0..<gone)
      ends.removeSubrange(0..<first)
      for index in ends.indices { ends[index] -= gone }
      first = 0
    }
  }

  /// How many values are kept.
  var count: Int { ends.count - first }

  /// Value `index` (0: the oldest kept).
  subscript(index: Int) -> ArraySlice<UInt8> {
    let position = first + index
    return bytes[(position == 0 ? 0 : ends[position - 1])..<ends[position]]
  }

  /// Oldest first.
  var values: [ArraySlice<UInt8>] { (0..<count).map { self[$0] } }
}
