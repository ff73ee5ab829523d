/// Maps short byte sequences (pairs or triples) to the ascending list of
/// entries whose text holds them.
///
/// ```swift
/// // texts "gtk-doc" and "libgtk", stored as in ``TextColumn``:
/// let bytes = Array("gtk-doc\0libgtk\0".utf8), starts = [0, 8, 15]
/// let g = UInt8(ascii: "g"), t = UInt8(ascii: "t")
/// GramIndex(bytes, starts, .pairs).withView { $0.entries(g, t) }           // [0, 1]
/// GramIndex(bytes, starts, .wordStartPairs).withView { $0.entries(g, t) }  // [0]
/// ```
///
/// Pairs are keyed exactly (65,536 keys). Triples are hashed onto 65,536
/// keys: a collision only adds candidates, which the search checks anyway,
/// while triples cut the candidates for long terms in long texts (every
/// summary with "library" holds the pairs of "libry", few hold "bry").
///
/// Built in two passes (count, then fill) over flat arrays: no dictionaries,
/// and the 65,536 counters fit in the CPU cache.
struct GramIndex: Sendable {
  enum Kind {
    /// Every pair of adjacent bytes.
    case pairs
    /// Pairs whose first byte begins a word.
    case wordStartPairs
    /// Pairs whose second byte ends a word.
    case wordEndPairs
    /// Every three adjacent bytes, hashed.
    case triples
  }

  private static let keys = 65_536

  /// Entries holding key `k` are `postings[offsets[k] ..< offsets[k + 1]]`.
  private let offsets: [Int32]
  private let postings: [Int32]

  /// `bytes` holds entry texts back to back, each followed by one 0 byte;
  /// entry `i` starts at `starts[i]` (`starts` has one extra, final element).
  init(_ bytes: [UInt8], _ starts: [Int], _ kind: Kind) {
    var offsets = [Int32](repeating: 0, count: Self.keys + 1)
    var postings: [Int32] = []
    bytes.withUnsafeBufferPointer { bytes in
      starts.withUnsafeBufferPointer { starts in
        var lastEntry = [Int32](repeating: -1, count: Self.keys)
        Self.forEachKey(bytes, starts, kind, &lastEntry) { key, _ in offsets[key + 1] += 1 }
        for key in 0..<Self.keys { offsets[key + 1] += offsets[key] }
        var next = offsets
        postings = [Int32](repeating: 0, count: Int(offsets[Self.keys]))
        for key in 0..<Self.keys { lastEntry[key] = -1 }
        Self.forEachKey(bytes, starts, kind, &lastEntry) { key, entry in
          postings[Int(next[key])] = entry
          next[key] += 1
        }
      }
    }
    self.offsets = offsets
    self.postings = postings
  }

  func withView<Result>(_ body: (GramIndexView) -> Result) -> Result {
    offsets.withUnsafeBufferPointer { offsets in
      postings.withUnsafeBufferPointer { postings in
        body(GramIndexView(offsets: offsets, postings: postings))
      }
    }
  }

  @inline(__always)
  static func key(_ first: UInt8, _ second: UInt8) -> Int {
    Int(first) << 8 | Int(second)
  }

  @inline(__always)
  static func key(_ first: UInt8, _ second: UInt8, _ third: UInt8) -> Int {
    let packed = UInt32(first) << 16 | UInt32(second) << 8 | UInt32(third)
    return Int((packed &* 0x9e37_79b1) >> 16)  // Fibonacci hashing: top 16 bits
  }

  /// Each distinct (key, entry) once, entries ascending.
  private static func forEachKey(
    _ bytes: UnsafeBufferPointer<UInt8>, _ starts: UnsafeBufferPointer<Int>, _ kind: Kind,
    _ lastEntry: inout [Int32], _ body: (Int, Int32) -> Void
  ) {
    let width = kind == .triples ? 3 : 2
    for entry in 0..<(starts.count - 1) {
      let start = starts[entry]
      let end = starts[entry + 1] - 1  // the 0 separator
      guard end - start >= width else { continue }
      let entry = Int32(entry)
      for first in start...(end - width) {
        let key: Int
        switch kind {
        case .pairs:
          key = Self.key(bytes[first], bytes[first + 1])
        case .wordStartPairs:
          guard first == start || SearchText.isSeparator(bytes[first - 1]) else { continue }
          key = Self.key(bytes[first], bytes[first + 1])
        case .wordEndPairs:
          guard first + 2 == end || SearchText.isSeparator(bytes[first + 2]) else { continue }
          key = Self.key(bytes[first], bytes[first + 1])
        case .triples:
          key = Self.key(bytes[first], bytes[first + 1], bytes[first + 2])
        }
        if lastEntry[key] != entry {
          lastEntry[key] = entry
          body(key, entry)
        }
      }
    }
  }
}

/// Borrowed access to a ``GramIndex`` during one search.
struct GramIndexView {
  let offsets: UnsafeBufferPointer<Int32>
  let postings: UnsafeBufferPointer<Int32>

  /// The entries holding `key`, ascending.
  func entries(_ key: Int) -> UnsafeBufferPointer<Int32> {
    UnsafeBufferPointer(rebasing: postings[Int(offsets[key])..<Int(offsets[key + 1])])
  }

  /// The entries holding the pair, for a pair index.
  func entries(_ first: UInt8, _ second: UInt8) -> UnsafeBufferPointer<Int32> {
    entries(GramIndex.key(first, second))
  }
}
