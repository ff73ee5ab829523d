/// Collects hits per match tier and knows when the top `limit` are settled.
///
/// Each tier keeps its best (lowest, see ``CatalogIndex``) entries,
/// ascending, at most `limit` of them. The search adds all prefix matches
/// first, then word matches, then substring matches, then summary matches,
/// the last three in rank order. Exact matches need no tier of their own:
/// they are the shortest names with the prefix, so they rank first in it.
///
/// ```swift
/// var tiers = RankedTiers(limit: 2)
/// tiers.addSubstringMatch(3)
/// tiers.addPrefixMatch(7)
/// tiers.best  // [7, 3]
/// ```
struct RankedTiers {
  let limit: Int
  private var prefix: [Int32] = []
  private var word: [Int32] = []
  private var substring: [Int32] = []
  private var summary: [Int32] = []

  init(limit: Int) { self.limit = limit }

  /// True when no later name match can get into the result: tiers above
  /// "substring" fill it, and later word matches rank below the ones held.
  var isSettledAboveSubstring: Bool {
    prefix.count + word.count >= limit
  }

  /// True when the result is full. Only final once every tier that ranks
  /// above the ones still being added is complete.
  var isFull: Bool {
    prefix.count + word.count + substring.count + summary.count >= limit
  }

  /// Prefix matches may arrive in any order.
  mutating func addPrefixMatch(_ entry: Int32) {
    if prefix.count == limit {
      guard let worst = prefix.last, entry < worst else { return }
      prefix.removeLast()
    }
    let slot = prefix.firstIndex { $0 > entry } ?? prefix.endIndex
    prefix.insert(entry, at: slot)
  }

  /// Word matches arrive in rank order.
  mutating func addWordMatch(_ entry: Int32) {
    if word.count < limit { word.append(entry) }
  }

  /// Substring matches arrive in rank order.
  mutating func addSubstringMatch(_ entry: Int32) {
    if substring.count < limit { substring.append(entry) }
  }

  /// Summary matches arrive in rank order.
  mutating func addSummaryMatch(_ entry: Int32) {
    if summary.count < limit { summary.append(entry) }
  }

  /// The result so far: tiers in order, cut to `limit`.
  var best: [Int32] {
    Array((prefix + word + substring + summary).prefix(limit))
  }
}
