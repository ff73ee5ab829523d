/// Borrowed, bounds-check-free access to a ``TextColumn`` during one search.
///
/// ```swift
/// column.withView { view in
///   view.forEachCandidate(containing: term) { entry in
///     let found = ByteSearch.firstIndex(of: term, in: view.text(entry), from: 0) != nil
///     return true  // keep going
///   }
/// }
/// ```
struct ColumnView {
  let bytes: UnsafeBufferPointer<UInt8>
  let starts: UnsafeBufferPointer<Int>
  let pairs: GramIndexView
  let triples: GramIndexView

  /// How often (in candidates) long loops look for task cancellation.
  private static let cancellationStride = 1024

  func text(_ entry: Int) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: bytes[starts[entry]..<(starts[entry + 1] - 1)])
  }

  /// Calls `body` in ascending order with every entry that may contain
  /// `term` (the caller checks), until `body` returns false. For terms of
  /// two or more bytes, entries missing from a list in `required` are
  /// skipped. Returns false only if the task was cancelled meanwhile.
  func forEachCandidate(
    containing term: UnsafeBufferPointer<UInt8>, in required: [UnsafeBufferPointer<Int32>] = [],
    _ body: (Int) -> Bool
  ) -> Bool {
    switch term.count {
    case 0: return true
    case 1: return scan(for: term[0], body)
    default: return intersect(term, required, body)
    }
  }

  /// Single bytes are not indexed: `memchr` over the whole column is fast,
  /// and common bytes match so often that the caller stops early.
  private func scan(for byte: UInt8, _ body: (Int) -> Bool) -> Bool {
    var position = 0
    var entry = 0
    var visited = 0
    while let hit = ByteSearch.firstIndex(of: byte, in: bytes, from: position) {
      // The entry holding `hit` is the last one starting at or before it.
      entry = ByteSearch.gallop(starts, from: entry, toFirstAtLeast: hit + 1) - 1
      guard body(entry) else { return true }
      position = starts[entry + 1]
      visited += 1
      if visited % Self.cancellationStride == 0 && Task.isCancelled { return false }
    }
    return true
  }

  /// Walks the shortest list (of the term's pairs and triples, and
  /// `required`) and keeps entries that are also in the next three. Pairs
  /// are exact, so they also cover a triple whose hash collides with a
  /// common one.
  private func intersect(
    _ term: UnsafeBufferPointer<UInt8>, _ required: [UnsafeBufferPointer<Int32>],
    _ body: (Int) -> Bool
  ) -> Bool {
    var lists = required
    func add(_ list: UnsafeBufferPointer<Int32>) {
      // The same gram twice ("etet") would only repeat work.
      if !lists.contains(where: { $0.baseAddress == list.baseAddress && $0.count == list.count }) {
        lists.append(list)
      }
    }
    for index in 0..<(term.count - 1) {
      add(pairs.entries(term[index], term[index + 1]))
      if index + 2 < term.count {
        add(triples.entries(GramIndex.key(term[index], term[index + 1], term[index + 2])))
      }
    }
    lists.sort { $0.count < $1.count }
    guard let shortest = lists.first, !shortest.isEmpty else { return true }
    let filters = Array(lists.dropFirst().prefix(3))
    var cursors = [Int](repeating: 0, count: filters.count)
    var visited = 0
    candidates: for candidate in shortest {
      visited += 1
      if visited % Self.cancellationStride == 0 && Task.isCancelled { return false }
      for (index, filter) in filters.enumerated() {
        cursors[index] = ByteSearch.gallop(filter, from: cursors[index], toFirstAtLeast: candidate)
        if cursors[index] == filter.count { break candidates }
        if filter[cursors[index]] != candidate { continue candidates }
      }
      guard body(Int(candidate)) else { return true }
    }
    return true
  }
}
