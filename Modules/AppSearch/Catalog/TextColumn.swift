/// One text per catalog entry (all names, or all summaries), folded and
/// stored back to back with pair and triple indexes, so a search touches a
/// few contiguous arrays instead of 60,000 `String`s.
///
/// ```swift
/// let names = TextColumn(["bash", "zsh"].map { SearchText.fold($0) })
/// names.withView { $0.text(1) }  // the bytes of "zsh"
/// ```
struct TextColumn: Sendable {
  /// Entry texts, each followed by a 0 byte (folded text never contains 0),
  /// so a scan over all of them can never match across two entries.
  let bytes: [UInt8]
  /// `starts[i]` is where entry `i` begins; one extra element marks the end.
  let starts: [Int]
  private let pairs: GramIndex
  private let triples: GramIndex

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
    self.bytes = bytes
    self.starts = starts
    pairs = GramIndex(bytes, starts, .pairs)
    triples = GramIndex(bytes, starts, .triples)
  }

  func withView<Result>(_ body: (ColumnView) -> Result) -> Result {
    bytes.withUnsafeBufferPointer { bytes in
      starts.withUnsafeBufferPointer { starts in
        pairs.withView { pairs in
          triples.withView { triples in
            body(ColumnView(bytes: bytes, starts: starts, pairs: pairs, triples: triples))
          }
        }
      }
    }
  }
}
