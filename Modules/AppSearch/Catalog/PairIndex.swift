/// Maps each byte pair to the ascending list of entries whose text holds it
/// at the chosen kind of position.
///
/// ```swift
/// // texts "gtk-doc" and "libgtk", stored as in ``TextColumn``:
/// let bytes = Array("gtk-doc\0libgtk\0".utf8), starts = [0, 8, 15]
/// PairIndex(bytes, starts, at: .anywhere)    // "gt" → [0, 1]
/// PairIndex(bytes, starts, at: .wordStart)   // "gt" → [0]
/// ```
///
/// Built in two passes (count, then fill) over flat arrays: no dictionaries,
/// and the 65,536 counters fit in the CPU cache.
struct PairIndex: Sendable {
  enum Positions {
    /// Every pair of adjacent bytes.
    case anywhere
    /// Pairs whose first byte begins a word.
    case wordStart
    /// Pairs whose second byte ends a word.
    case wordEnd
  }

  /// Entries holding pair `p` are `postings[offsets[p] ..< offsets[p + 1]]`.
  private let offsets: [Int32]
  private let postings: [Int32]

  /// `bytes` holds entry texts back to back, each followed by one 0 byte;
  /// entry `i` starts at `starts[i]` (`starts` has one extra, final element).
  init(_ bytes: [UInt8], _ starts: [Int], at positions: Positions) {
    var offsets = [Int32](repeating: 0, count: 65_537)
    var postings: [Int32] = []
    bytes.withUnsafeBufferPointer { bytes in
      starts.withUnsafeBufferPointer { starts in
        var lastEntry = [Int32](repeating: -1, count: 65_536)
        Self.forEachPair(bytes, starts, positions, &lastEntry) { pair, _ in
          offsets[pair + 1] += 1
        }
        for pair in 0..<65_536 { offsets[pair + 1] += offsets[pair] }
        var next = offsets
        postings = [Int32](repeating: 0, count: Int(offsets[65_536]))
        for pair in 0..<65_536 { lastEntry[pair] = -1 }
        Self.forEachPair(bytes, starts, positions, &lastEntry) { pair, entry in
          postings[Int(next[pair])] = entry
          next[pair] += 1
        }
      }
    }
    self.offsets = offsets
    self.postings = postings
  }

  func withView<Result>(_ body: (PairIndexView) -> Result) -> Result {
    offsets.withUnsafeBufferPointer { offsets in
      postings.withUnsafeBufferPointer { postings in
        body(PairIndexView(offsets: offsets, postings: postings))
      }
    }
  }

  /// Each distinct (pair, entry) once, entries ascending.
  private static func forEachPair(
    _ bytes: UnsafeBufferPointer<UInt8>, _ starts: UnsafeBufferPointer<Int>,
    _ positions: Positions, _ lastEntry: inout [Int32], _ body: (Int, Int32) -> Void
  ) {
    for entry in 0..<(starts.count - 1) {
      let start = starts[entry]
      let end = starts[entry + 1] - 1  // the 0 separator
      guard end - start >= 2 else { continue }
      let entry = Int32(entry)
      for second in (start + 1)..<end {
        switch positions {
        case .anywhere: break
        case .wordStart:
          guard second == start + 1 || SearchText.isSeparator(bytes[second - 2]) else { continue }
        case .wordEnd:
          guard second == end - 1 || SearchText.isSeparator(bytes[second + 1]) else { continue }
        }
        let pair = Int(bytes[second - 1]) << 8 | Int(bytes[second])
        if lastEntry[pair] != entry {
          lastEntry[pair] = entry
          body(pair, entry)
        }
      }
    }
  }
}

/// Borrowed access to a ``PairIndex`` during one search.
struct PairIndexView {
  let offsets: UnsafeBufferPointer<Int32>
  let postings: UnsafeBufferPointer<Int32>

  /// The entries holding the pair `first, second`, ascending.
  func entries(_ first: UInt8, _ second: UInt8) -> UnsafeBufferPointer<Int32> {
    let pair = Int(first) << 8 | Int(second)
    return UnsafeBufferPointer(rebasing: postings[Int(offsets[pair])..<Int(offsets[pair + 1])])
  }
}
