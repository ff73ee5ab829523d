/// Collects hits per match tier and knows when the top `limit` are settled.
///
/// Each tier keeps its entries in ascending (= rank) order, capped at
/// `limit`. The search adds all exact and prefix matches first, then word
/// matches, then substring matches, then summary matches, each in rank order.
///
/// ```swift
/// var tiers = RankedTiers(limit: 2)
/// tiers.addPrefixMatch(7, exact: true)
/// tiers.addSubstringMatch(3)
/// tiers.best  // [7, 3]
/// ```
struct RankedTiers {
  let limit: Int
  private var exact: [Int32] = []
  /// The smallest `limit` prefix matches, ascending.
  private var prefix: [Int32] = []
  private var word: [Int32] = []
  private var substring: [Int32] = []
  private var summary: [Int32] = []
  init(limit: Int) { self.limit = limit }

  /// True when no later name match can get into the result: tiers above
  /// "substring" fill it, and later word matches rank below the ones held.
  var isSettledAboveSubstring: Bool {
    exact.count + prefix.count + word.count >= limit
  }

  /// True when the result is full. Only final once every tier that ranks
  /// above the ones still being added is complete.
  var isFull: Bool {
    exact.count + prefix.count + word.count + substring.count + summary.count >= limit
  }

  /// Exact and prefix matches arrive in name order, not rank order.
  mutating func addPrefixMatch(_ entry: Int32, exact isExact: Bool) {
    if isExact {
      let slot = exact.firstIndex { $0 > entry } ?? exact.endIndex
      exact.insert(entry, at: slot)
      return
    }
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

  mutating func addSummaryMatch(_ entry: Int32) {
    if summary.count < limit { summary.append(entry) }
  }

  /// The result so far: tiers in order, cut to `limit`.
  var best: [Int32] {
    Array((exact + prefix + word + substring + summary).prefix(limit))
  }
}
