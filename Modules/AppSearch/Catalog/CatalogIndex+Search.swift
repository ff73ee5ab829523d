/// Ranking: exact name > name prefix > whole word in name > substring of
/// name > substring of summary; ties go to the shorter, then alphabetically
/// first name (the storage order, see ``CatalogIndex``).
///
/// ```swift
/// index.search("GTK", limit: 20)  // case-insensitive; nil only if cancelled
/// ```
extension CatalogIndex {
  /// The best `limit` entries for `term`, or nil if the task was cancelled.
  func search(_ term: String, limit: Int) -> [App]? {
    var folded = SearchText.fold(term)
    while folded.last == 0x20 { folded.removeLast() }
    let leading = folded.prefix { $0 == 0x20 }.count
    folded.removeFirst(leading)
    guard !folded.isEmpty, limit > 0, !apps.isEmpty else { return [] }
    let limit = min(limit, apps.count)
    let ids = folded.withUnsafeBufferPointer { term in
      names.withView { names in
        summaries.withView { summaries in
          byName.withUnsafeBufferPointer { byName in
            rank(term, limit: limit, names: names, summaries: summaries, byName: byName)
          }
        }
      }
    }
    return ids?.map { apps[Int($0)] }
  }

  private func rank(
    _ term: UnsafeBufferPointer<UInt8>, limit: Int, names: ColumnView, summaries: ColumnView,
    byName: UnsafeBufferPointer<Int32>
  ) -> [Int32]? {
    var tiers = RankedTiers(limit: limit)
    // Exact and prefix matches form one run in name order.
    var position = lowerBound(term, names: names, byName: byName)
    while position < byName.count, ByteSearch.hasPrefix(names.text(Int(byName[position])), term) {
      let entry = byName[position]
      tiers.addPrefixMatch(entry, exact: names.text(Int(entry)).count == term.count)
      position += 1
    }
    guard !tiers.isSettledAboveSubstring else { return tiers.best }
    // Entries come in rank order, so each tier's first hits are its best.
    let finished = names.forEachEntry(containing: term) { entry in
      let name = names.text(entry)
      if ByteSearch.hasPrefix(name, term) { return true }  // counted above
      tiers.addNameMatch(Int32(entry), wholeWord: NameMatch.isWholeWord(term, in: name))
      return !tiers.isSettledAboveSubstring
    }
    guard finished else { return nil }
    // Below `limit` name matches, none was dropped, so all are in `best`.
    guard !tiers.isFull else { return tiers.best }
    let nameHits = Set(tiers.best)
    let done = summaries.forEachEntry(containing: term) { entry in
      if nameHits.contains(Int32(entry)) { return true }
      tiers.addSummaryMatch(Int32(entry))
      return !tiers.isFull
    }
    return done ? tiers.best : nil
  }

  /// The first position in `byName` whose name is not below `term`.
  private func lowerBound(
    _ term: UnsafeBufferPointer<UInt8>, names: ColumnView, byName: UnsafeBufferPointer<Int32>
  ) -> Int {
    var low = 0
    var high = byName.count
    while low < high {
      let mid = (low + high) >> 1
      if ByteSearch.compare(names.text(Int(byName[mid])), term) < 0 {
        low = mid + 1
      } else {
        high = mid
      }
    }
    return low
  }
}
