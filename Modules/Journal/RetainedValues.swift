#if canImport(Glibc)
  import Glibc
#endif

/// The values last written under one key, oldest first, at most `limit` of them: the oldest
/// goes when a new one comes. They lie whole in one byte ring, allocated (and zero-filled)
/// ahead, so that keeping a value is one copy of its bytes into place (the ring is grown only
/// when a value finds no room): a daemon keeps one per change, on the writer's path.
struct RetainedValues: Sendable {
  let limit: Int
  /// The ring: each value lies whole (never split at its end), the next after it or, when it
  /// would not fit before the end, from 0.
  private var bytes: [UInt8] = []
  /// Where each value lies in `bytes`, a ring of `limit` once full: the oldest at `oldest`.
  private var spans: [Range<Int>] = []
  private var oldest = 0

  init(limit: Int) { self.limit = max(1, limit) }

  mutating func append(_ value: some Collection<UInt8>) {
    let done: Void? = value.withContiguousStorageIfAvailable { append(UnsafeRawBufferPointer($0)) }
    if done == nil { Array(value).withUnsafeBytes { append($0) } }
  }

  mutating func append(_ value: UnsafeRawBufferPointer) {
    let full = spans.count == limit
    // The room the oldest leaves is free from now on: the newest may take it. An empty value
    // is placed as one byte long, so that where each value starts tells their order.
    let start = place(max(1, value.count), dropping: full ? 1 : 0)
    if value.count > 0 {
      bytes.withUnsafeMutableBytes { ring in
        (ring.baseAddress! + start).copyMemory(from: value.baseAddress!, byteCount: value.count)
      }
    }
    let span = start..<(start + value.count)
    if full {
      spans[oldest] = span
      oldest = oldest + 1 == limit ? 0 : oldest + 1
    } else {
      spans.append(span)
    }
  }

  /// Appends the values at `ranges` of `bytes`, oldest first (only the newest `limit` stay).
  mutating func append(_ ranges: ArraySlice<Range<Int>>, of bytes: UnsafeRawBufferPointer) {
    for range in ranges.suffix(limit) {
      append(UnsafeRawBufferPointer(rebasing: bytes[range]))
    }
  }

  /// Where a value of `size` bytes goes, once the oldest `dropped` are gone: after the newest
  /// if it fits there, else from 0 if it fits before the oldest kept; else the ring grows.
  @inline(__always)
  private mutating func place(_ size: Int, dropping dropped: Int) -> Int {
    let kept = spans.count - dropped
    guard kept > 0 else {
      if bytes.count < size { grow(size, dropping: dropped) }
      return 0
    }
    // Indices into the ring of spans without a division: `dropped` is 0 only while it is not
    // full yet, when the oldest is at 0.
    let firstIndex = oldest + dropped == spans.count ? 0 : oldest + dropped
    let first = spans[firstIndex].lowerBound
    let newest = spans[oldest == 0 ? spans.count - 1 : oldest - 1]
    let end = newest.upperBound
    if newest.lowerBound >= first {
      // Kept values lie from `first` to `end`: room after them, or in front of them.
      if end + size <= bytes.count { return end }
      if size <= first { return 0 }
    } else if end + size <= first {
      // They wrapped: the room is between the newest and the oldest.
      return end
    }
    return grow(size, dropping: dropped)
  }

  /// Copies the kept values (all but the oldest `dropped`) to the front of a larger ring,
  /// with room for `size` more bytes after them; returns where those go.
  @discardableResult
  private mutating func grow(_ size: Int, dropping dropped: Int) -> Int {
    let old = spans.count
    var used = 0
    for index in dropped..<old { used += spans[(oldest + index) % old].count }
    var ring = [UInt8](repeating: 0, count: max(2 * (used + size), 256))
    var moved: [Range<Int>] = []
    moved.reserveCapacity(old)
    ring.withUnsafeMutableBytes { to in
      bytes.withUnsafeBytes { from in
        var next = 0
        for index in dropped..<old {
          let span = spans[(oldest + index) % old]
          if !span.isEmpty {
            (to.baseAddress! + next).copyMemory(
              from: from.baseAddress! + span.lowerBound, byteCount: span.count)
          }
          moved.append(next..<(next + span.count))
          next += span.count
        }
      }
    }
    // The dropped ones keep (empty) slots at the front: the oldest comes next, as before, and
    // the caller overwrites it.
    bytes = ring
    spans = Array(repeating: 0..<0, count: dropped) + moved
    oldest = 0
    return used
  }

  /// How many values are kept.
  var count: Int { spans.count }

  /// Value `index` (0: the oldest kept).
  subscript(index: Int) -> ArraySlice<UInt8> {
    bytes[spans[(oldest + index) % spans.count]]
  }

  /// Oldest first.
  var values: [ArraySlice<UInt8>] { (0..<count).map { self[$0] } }
}
