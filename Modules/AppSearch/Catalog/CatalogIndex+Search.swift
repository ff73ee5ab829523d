/// Ranking: exact name > name prefix > whole word in name > substring of
/// name > substring of summary (see ``NameMatch``); ties go to the shorter, then alphabetically
/// first name (the storage order, see ``CatalogIndex``).
///
/// ```swift
/// index.search("GTK", limit: 20)  // case-insensitive; nil only if cancelled
/// ```
///
/// Each tier is collected in its own pass, best tier first, and a pass stops
/// as soon as the result is settled, so popular terms cost little more than
/// rare ones.
extension CatalogIndex {
  /// The best `limit` entries for `term`, or nil if the task was cancelled.
  func search(_ term: String, limit: Int) -> [App]? {
    var folded = SearchText.fold(term)
    while folded.last == 0x20 { folded.removeLast() }
    folded.removeFirst(folded.prefix { $0 == 0x20 }.count)
    guard !folded.isEmpty, limit > 0, !apps.isEmpty else { return [] }
    let ids = folded.withUnsafeBufferPointer { term in
      withViews { views in rank(term, limit: min(limit, apps.count), views) }
    }
    return ids?.map { apps[Int($0)] }
  }

  private struct Views {
    let names: ColumnView
    let wordStarts: GramIndexView
    let wordEnds: GramIndexView
    let summaries: ColumnView
    let byName: UnsafeBufferPointer<Int32>
  }

  private func withViews<Result>(_ body: (Views) -> Result) -> Result {
    names.withView { names in
      nameWordStarts.withView { wordStarts in
        nameWordEnds.withView { wordEnds in
          summaries.withView { summaries in
            byName.withUnsafeBufferPointer { byName in
              body(
                Views(
                  names: names, wordStarts: wordStarts, wordEnds: wordEnds,
                  summaries: summaries, byName: byName))
            }
          }
        }
      }
    }
  }

  private func rank(_ term: UnsafeBufferPointer<UInt8>, limit: Int, _ views: Views) -> [Int32]? {
    var tiers = RankedTiers(limit: limit)
    addPrefixMatches(term, views, &tiers)
    guard !tiers.isSettledAboveSubstring else { return tiers.best }
    guard addWordAndSubstringMatches(term, views, &tiers) else { return nil }
    guard !tiers.isFull else { return tiers.best }
    // Fewer than `limit` name matches: none was dropped, all are in `best`.
    let nameHits = Set(tiers.best)
    let finished = views.summaries.forEachCandidate(containing: term) { entry in
      let summary = views.summaries.text(entry)
      if nameHits.contains(Int32(entry))
        || ByteSearch.firstIndex(of: term, in: summary, from: 0) == nil
      {
        return true
      }
      tiers.addSummaryMatch(Int32(entry))
      return !tiers.isFull
    }
    return finished ? tiers.best : nil
  }

  /// Names starting with the term (the exact match included) form one run
  /// in name order, found by binary search. A long run (say "lib", with
  /// thousands) is not read whole: reading entries in rank order until
  /// `limit` of them match takes about `limit × entries / run` steps.
  private func addPrefixMatches(
    _ term: UnsafeBufferPointer<UInt8>, _ views: Views, _ tiers: inout RankedTiers
  ) {
    let byName = views.byName
    let hasPrefix = { (entry: Int32) in
      ByteSearch.matches(term, in: views.names.text(Int(entry)), at: 0)
    }
    let lower = partition(byName, from: 0) {
      ByteSearch.compare(views.names.text(Int($0)), term) < 0
    }
    let upper = partition(byName, from: lower, hasPrefix)
    guard upper - lower > max(Self.longPrefixRun, tiers.limit) else {
      for entry in byName[lower..<upper] { tiers.addPrefixMatch(entry) }
      return
    }
    // Stops early: the run holds more than `limit` entries.
    var entry: Int32 = 0
    while !tiers.isSettledAboveSubstring && Int(entry) < byName.count {
      if hasPrefix(entry) { tiers.addPrefixMatch(entry) }
      entry += 1
    }
  }

  /// Above this many prefix matches, walking in rank order is cheaper.
  private static let longPrefixRun = 1024

  /// The first index at or after `start` where `isBelow` turns false.
  private func partition(
    _ list: UnsafeBufferPointer<Int32>, from start: Int, _ isBelow: (Int32) -> Bool
  ) -> Int {
    var low = start
    var high = list.count
    while low < high {
      let mid = (low + high) >> 1
      if isBelow(list[mid]) { low = mid + 1 } else { high = mid }
    }
    return low
  }

  /// Whole-word matches first (from the word-boundary indexes), so that the
  /// substring pass can stop once it holds enough. Entries arrive in rank
  /// order, so each tier's first hits are its best. False if cancelled.
  private func addWordAndSubstringMatches(
    _ term: UnsafeBufferPointer<UInt8>, _ views: Views, _ tiers: inout RankedTiers
  ) -> Bool {
    let first = term[0]
    let last = term[term.count - 1]
    var required: [UnsafeBufferPointer<Int32>] = []
    if term.count >= 2 && !SearchText.isSeparator(first) {
      required.append(views.wordStarts.entries(first, term[1]))
    }
    if term.count >= 2 && !SearchText.isSeparator(last) {
      required.append(views.wordEnds.entries(term[term.count - 2], last))
    }
    // One byte, or separators at both ends: a single pass sees every match.
    let singlePass = required.isEmpty
    let finished = views.names.forEachCandidate(containing: term, in: required) { entry in
      switch NameMatch.classify(term, in: views.names.text(entry)) {
      case .word?: tiers.addWordMatch(Int32(entry))
      case .substring? where singlePass: tiers.addSubstringMatch(Int32(entry))
      default: break
      }
      return !tiers.isSettledAboveSubstring
    }
    guard finished else { return false }
    guard !singlePass && !tiers.isSettledAboveSubstring else { return true }
    return views.names.forEachCandidate(containing: term) { entry in
      if NameMatch.classify(term, in: views.names.text(entry)) == .substring {
        tiers.addSubstringMatch(Int32(entry))
      }
      return !tiers.isFull
    }
  }
}
