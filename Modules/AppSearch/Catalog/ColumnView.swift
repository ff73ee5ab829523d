/// Borrowed, bounds-free access to a ``TextColumn`` during one search.
///
/// ```swift
/// column.withView { view in
///   view.forEachEntry(containing: term) { entry in print(entry); return true }
/// }
/// ```
struct ColumnView {
  let bytes: UnsafeBufferPointer<UInt8>
  let starts: UnsafeBufferPointer<Int>
  let offsets: UnsafeBufferPointer<Int32>
  let postings: UnsafeBufferPointer<Int32>

  /// How often (in candidates) long loops look for task cancellation.
  private static let cancellationStride = 4096

  func text(_ entry: Int) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: bytes[starts[entry]..<(starts[entry + 1] - 1)])
  }

  /// Calls `body` with every entry whose text contains `term`, in ascending
  /// order, until `body` returns false. Returns false only if the task was
  /// cancelled meanwhile.
  func forEachEntry(containing term: UnsafeBufferPointer<UInt8>, _ body: (Int) -> Bool) -> Bool {
    switch term.count {
    case 0: return true
    case 1: return scan(for: term, body)
    default: return lookUp(term, body)
    }
  }

  /// Single bytes are not indexed: `memchr` over the whole column is fast,
  /// and common bytes match so often that the caller stops early.
  private func scan(for term: UnsafeBufferPointer<UInt8>, _ body: (Int) -> Bool) -> Bool {
    var position = 0
    var entry = 0
    var visited = 0
    while let hit = ByteSearch.firstIndex(of: term, in: bytes, from: position) {
      // The entry holding `hit` is the last one starting at or before it.
      entry = ByteSearch.gallop(starts, from: entry, toFirstAtLeast: hit + 1) - 1
      guard body(entry) else { return true }
      position = starts[entry + 1]
      visited += 1
      if visited % Self.cancellationStride == 0 && Task.isCancelled { return false }
    }
    return true
  }

  /// Walks the shortest posting list, keeps entries that are also in the
  /// next two shortest, then confirms the whole term in the text.
  private func lookUp(_ term: UnsafeBufferPointer<UInt8>, _ body: (Int) -> Bool) -> Bool {
    var lists: [Range<Int>] = []
    for index in 1..<term.count {
      let pair = Int(term[index - 1]) << 8 | Int(term[index])
      let list = Int(offsets[pair])..<Int(offsets[pair + 1])
      if list.isEmpty { return true }
      if !lists.contains(list) { lists.append(list) }
    }
    lists.sort { $0.count < $1.count }
    let filters = lists.dropFirst().prefix(2).map {
      UnsafeBufferPointer(rebasing: postings[$0])
    }
    var cursors = [Int](repeating: 0, count: filters.count)
    // Two-byte terms are answered exactly by their pair; longer need a check.
    let mustVerify = term.count > 2
    var visited = 0
    candidates: for candidate in postings[lists[0]] {
      visited += 1
      if visited % Self.cancellationStride == 0 && Task.isCancelled { return false }
      for (index, filter) in filters.enumerated() {
        cursors[index] = ByteSearch.gallop(filter, from: cursors[index], toFirstAtLeast: candidate)
        if cursors[index] == filter.count { break candidates }
        if filter[cursors[index]] != candidate { continue candidates }
      }
      let entry = Int(candidate)
      if mustVerify && ByteSearch.firstIndex(of: term, in: text(entry), from: 0) == nil {
        continue
      }
      guard body(entry) else { return true }
    }
    return true
  }
}
