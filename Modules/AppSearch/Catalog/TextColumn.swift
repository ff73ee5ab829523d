/// One text per catalog entry (all names, or all summaries), folded and
/// stored back to back with a bigram index, so a search touches a few
/// contiguous arrays instead of 60,000 `String`s.
///
/// ```swift
/// let names = TextColumn(["bash", "zsh"].map { SearchText.fold($0) })
/// names.withView { $0.text(1) }  // the bytes of "zsh"
/// ```
///
/// The index maps each byte pair to the ascending list of entries whose text
/// contains it. Two-byte terms are answered from it exactly; longer terms use
/// their rarest pairs to pick candidates, then check them.
struct TextColumn: Sendable {
  /// Entry texts, each followed by a 0 byte (folded text never contains 0).
  private let bytes: [UInt8]
  /// `starts[i]` is where entry `i` begins; one extra element marks the end.
  private let starts: [Int]
  /// Entries containing pair `p` are `postings[offsets[p] ..< offsets[p + 1]]`.
  private let offsets: [Int32]
  private let postings: [Int32]

  init(_ texts: [[UInt8]]) {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(texts.reduce(0) { $0 + $1.count + 1 })
    var starts: [Int] = [0]
    starts.reserveCapacity(texts.count + 1)
    for text in texts {
      bytes += text
      bytes.append(0)
      starts.append(bytes.count)
    }
    (offsets, postings) = Self.pairIndex(texts)
    self.bytes = bytes
    self.starts = starts
  }

  var count: Int { starts.count - 1 }

  func withView<Result>(_ body: (ColumnView) -> Result) -> Result {
    bytes.withUnsafeBufferPointer { bytes in
      starts.withUnsafeBufferPointer { starts in
        offsets.withUnsafeBufferPointer { offsets in
          postings.withUnsafeBufferPointer { postings in
            body(ColumnView(bytes: bytes, starts: starts, offsets: offsets, postings: postings))
          }
        }
      }
    }
  }

  /// Builds the pair index in two passes (count, then fill) over flat
  /// arrays: no dictionaries, and 65,536 counters fit in the CPU cache.
  private static func pairIndex(_ texts: [[UInt8]]) -> (offsets: [Int32], postings: [Int32]) {
    var offsets = [Int32](repeating: 0, count: 65_537)
    var lastEntry = [Int32](repeating: -1, count: 65_536)
    forEachPair(texts, &lastEntry) { pair, _ in offsets[pair + 1] += 1 }
    for pair in 0..<65_536 { offsets[pair + 1] += offsets[pair] }
    var next = offsets
    var postings = [Int32](repeating: 0, count: Int(offsets[65_536]))
    lastEntry = [Int32](repeating: -1, count: 65_536)
    forEachPair(texts, &lastEntry) { pair, entry in
      postings[Int(next[pair])] = entry
      next[pair] += 1
    }
    return (offsets, postings)
  }

  /// Each distinct (pair, entry) once, entries ascending.
  private static func forEachPair(
    _ texts: [[UInt8]], _ lastEntry: inout [Int32], _ body: (Int, Int32) -> Void
  ) {
    for (entry, text) in texts.enumerated() where text.count >= 2 {
      let entry = Int32(entry)
      for index in 1..<text.count {
        let pair = Int(text[index - 1]) << 8 | Int(text[index])
        if lastEntry[pair] != entry {
          lastEntry[pair] = entry
          body(pair, entry)
        }
      }
    }
  }
}
