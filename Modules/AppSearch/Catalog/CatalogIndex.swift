/// An immutable, searchable snapshot of a package catalog.
///
/// Entries are stored in rank order (shorter folded name first, then
/// alphabetical), so within one match tier the first hits found are the best
/// ones and a search can stop as soon as it has enough.
///
/// ```swift
/// let index = CatalogIndex([App(id: 1, name: "bash"), App(id: 2, name: "bash-completion")])
/// index.search("bash", limit: 10)  // bash (exact), then bash-completion (prefix)
/// ```
struct CatalogIndex: Sendable {
  /// Entry `i` of every column below describes `apps[i]`.
  let apps: [App]
  let names: TextColumn
  /// Where words begin and end in names, to find whole-word matches without
  /// looking at every name that merely contains the term.
  let nameWordStarts: GramIndex
  let nameWordEnds: GramIndex
  let summaries: TextColumn
  /// Entries sorted by folded name bytes, for finding prefix matches by
  /// binary search instead of by scanning.
  let byName: [Int32]

  init(_ entries: [App]) {
    let folded = entries.map { SearchText.fold($0.name) }
    // Most comparisons are settled by length and the first 8 bytes, which
    // avoids touching the byte arrays (and their reference counts).
    let heads = folded.map(Self.head)
    let order = entries.indices.sorted { left, right in
      let (a, b) = (folded[left], folded[right])
      if a.count != b.count { return a.count < b.count }
      if heads[left] != heads[right] { return heads[left] < heads[right] }
      if a != b { return a.lexicographicallyPrecedes(b) }
      if entries[left].name != entries[right].name {
        return entries[left].name < entries[right].name
      }
      return entries[left].id < entries[right].id
    }
    apps = order.map { entries[$0] }
    let names = order.map { folded[$0] }
    let nameHeads = order.map { heads[$0] }
    let column = TextColumn(names)
    self.names = column
    nameWordStarts = GramIndex(column.bytes, column.starts, .wordStartPairs)
    nameWordEnds = GramIndex(column.bytes, column.starts, .wordEndPairs)
    summaries = TextColumn(apps.map { SearchText.fold($0.summary ?? "") })
    byName = (0..<Int32(names.count)).sorted { left, right in
      let (l, r) = (Int(left), Int(right))
      if nameHeads[l] != nameHeads[r] { return nameHeads[l] < nameHeads[r] }
      let (a, b) = (names[l], names[r])
      return a == b ? left < right : a.lexicographicallyPrecedes(b)
    }
  }

  /// The first 8 bytes, big-endian, zero-padded: orders like the bytes do
  /// (folded text has no 0 bytes, so padding puts a prefix first).
  private static func head(_ text: [UInt8]) -> UInt64 {
    var head: UInt64 = 0
    for index in 0..<8 {
      head = head << 8 | UInt64(index < text.count ? text[index] : 0)
    }
    return head
  }
}
