/// The values last written under one key, oldest first, at most `limit` of them: the oldest
/// goes when a new one comes. Values that fell off stay in front until they are as many as the
/// limit, then go in one move, so appending costs O(1) amortised.
struct RetainedValues: Sendable {
  let limit: Int
  private var items: [[UInt8]] = []
  private var first = 0

  init(limit: Int) { self.limit = max(1, limit) }

  mutating func append(_ value: [UInt8]) {
    items.append(value)
    guard items.count - first > limit else { return }
    first += 1
    if first >= max(limit, 16) {
      items.removeFirst(first)
      first = 0
    }
  }

  /// Oldest first.
  var values: ArraySlice<[UInt8]> { items[first...] }
}
