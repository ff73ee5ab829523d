import Glibc

/// Small byte-level search primitives for the catalog's hot loops.
///
/// ```swift
/// ByteSearch.firstIndex(of: needle, in: hay, from: 0)  // like memmem
/// ```
enum ByteSearch {
  /// The first position at or after `start` where `needle` occurs in `hay`.
  /// `memchr` finds candidates for the first byte (vectorized in glibc).
  static func firstIndex(
    of needle: UnsafeBufferPointer<UInt8>, in hay: UnsafeBufferPointer<UInt8>, from start: Int
  ) -> Int? {
    guard let first = needle.first, let base = hay.baseAddress, let needleBase = needle.baseAddress
    else { return needle.isEmpty ? start : nil }
    var position = start
    let lastStart = hay.count - needle.count
    while position <= lastStart {
      let span = lastStart - position + 1
      guard let hit = memchr(base + position, Int32(first), span) else { return nil }
      let found = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
      if memcmp(base + found, needleBase, needle.count) == 0 { return found }
      position = found + 1
    }
    return nil
  }

  /// True when `hay` starts with `prefix`.
  static func hasPrefix(
    _ hay: UnsafeBufferPointer<UInt8>, _ prefix: UnsafeBufferPointer<UInt8>
  )
    -> Bool
  {
    guard hay.count >= prefix.count else { return false }
    guard let hayBase = hay.baseAddress, let prefixBase = prefix.baseAddress else { return true }
    return memcmp(hayBase, prefixBase, prefix.count) == 0
  }

  /// Lexicographic byte order (like `memcmp`, shorter first on a tie); with
  /// `prefixOnly`, `lhs` is cut to `rhs.count` bytes first.
  static func compare(
    _ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>, prefixOnly: Bool = false
  ) -> Int {
    let left = prefixOnly ? min(lhs.count, rhs.count) : lhs.count
    let common = min(left, rhs.count)
    if common > 0, let lhsBase = lhs.baseAddress, let rhsBase = rhs.baseAddress {
      let order = memcmp(lhsBase, rhsBase, common)
      if order != 0 { return Int(order) }
    }
    return left - rhs.count
  }

  /// The first index at or after `start` whose value is ≥ `value`, in an
  /// ascending list. Galloping: cheap both for near and for far targets.
  static func gallop<T: BinaryInteger>(
    _ list: UnsafeBufferPointer<T>, from start: Int, toFirstAtLeast value: T
  ) -> Int {
    var low = start
    var step = 1
    var high = start
    while high < list.count && list[high] < value {
      low = high + 1
      high += step
      step <<= 1
    }
    high = min(high, list.count)
    while low < high {
      let mid = (low + high) >> 1
      if list[mid] < value { low = mid + 1 } else { high = mid }
    }
    return low
  }
}
