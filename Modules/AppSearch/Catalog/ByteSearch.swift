import Glibc

/// Byte-level search primitives for the catalog's hot loops.
///
/// ```swift
/// ByteSearch.firstIndex(of: needle, in: hay, from: 0)  // like memmem
/// ```
enum ByteSearch {
  /// Below this many bytes a plain loop beats a call into libc.
  private static let shortText = 48

  /// The first position at or after `start` where `needle` occurs in `hay`.
  static func firstIndex(
    of needle: UnsafeBufferPointer<UInt8>, in hay: UnsafeBufferPointer<UInt8>, from start: Int
  ) -> Int? {
    guard let first = needle.first else { return start }
    var position = start
    let lastStart = hay.count - needle.count
    while position <= lastStart {
      guard let found = firstIndex(of: first, in: hay, from: position, to: lastStart + 1) else {
        return nil
      }
      if matches(needle, in: hay, at: found) { return found }
      position = found + 1
    }
    return nil
  }

  /// The first position of `byte` in `hay[start...]`.
  static func firstIndex(
    of byte: UInt8, in hay: UnsafeBufferPointer<UInt8>, from start: Int
  )
    -> Int?
  {
    firstIndex(of: byte, in: hay, from: start, to: hay.count)
  }

  /// True when `hay` holds `needle` starting at `position`.
  @inline(__always)
  static func matches(
    _ needle: UnsafeBufferPointer<UInt8>, in hay: UnsafeBufferPointer<UInt8>, at position: Int
  ) -> Bool {
    guard position >= 0 && position + needle.count <= hay.count else { return false }
    var index = 0
    while index < needle.count {
      if hay[position + index] != needle[index] { return false }
      index += 1
    }
    return true
  }

  /// Lexicographic byte order (like `memcmp`, shorter first on a tie).
  static func compare(
    _ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>
  )
    -> Int
  {
    let common = min(lhs.count, rhs.count)
    var index = 0
    while index < common {
      if lhs[index] != rhs[index] { return Int(lhs[index]) - Int(rhs[index]) }
      index += 1
    }
    return lhs.count - rhs.count
  }

  /// The first index at or after `start` whose value is ≥ `value`, in an
  /// ascending list. Galloping: cheap both for near and for far targets.
  @inline(__always)
  static func gallop<T: FixedWidthInteger>(
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

  @inline(__always)
  private static func firstIndex(
    of byte: UInt8, in hay: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int
  ) -> Int? {
    guard start < end else { return nil }
    if end - start < shortText {
      var index = start
      while index < end {
        if hay[index] == byte { return index }
        index += 1
      }
      return nil
    }
    guard let base = hay.baseAddress, let hit = memchr(base + start, Int32(byte), end - start)
    else { return nil }
    return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
  }
}
