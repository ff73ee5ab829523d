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
  let summaries: TextColumn
  /// Entries sorted by folded name bytes, for finding prefix matches by
  /// binary search instead of by scanning.
  let byName: [Int32]

  init(_ entries: [App]) {
    let foldedNames = entries.map { SearchText.fold($0.name) }
    let order = entries.indices.sorted { left, right in
      let (a, b) = (foldedNames[left], foldedNames[right])
      if a.count != b.count { return a.count < b.count }
      if a != b { return a.lexicographicallyPrecedes(b) }
      if entries[left].name != entries[right].name {
        return entries[left].name < entries[right].name
      }
      return entries[left].id < entries[right].id
    }
    apps = order.map { entries[$0] }
    let names = order.map { foldedNames[$0] }
    self.names = TextColumn(names)
    summaries = TextColumn(apps.map { SearchText.fold($0.summary ?? "") })
    byName = (0..<Int32(names.count)).sorted { left, right in
      let (a, b) = (names[Int(left)], names[Int(right)])
      return a == b ? left < right : a.lexicographicallyPrecedes(b)
    }
  }

  var count: Int { apps.count }
}
