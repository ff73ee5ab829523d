import Foundation

@testable import AppSearch

/// The ranking written the obvious way: classify every entry, sort, cut.
struct ReferenceRanking {
  private let entries: [(app: App, name: [UInt8], summary: [UInt8])]

  init(_ apps: [App]) {
    entries = apps.map {
      ($0, Array($0.name.lowercased().utf8), Array(($0.summary ?? "").lowercased().utf8))
    }
  }

  func search(_ term: String, limit: Int) -> [App] {
    let term = Array(term.lowercased().trimmingCharacters(in: .whitespacesAndNewlines).utf8)
    guard !term.isEmpty else { return [] }
    let ranked = entries.compactMap { entry -> (tier: Int, name: [UInt8], app: App)? in
      guard let tier = Self.tier(entry.name, entry.summary, term) else { return nil }
      return (tier, entry.name, entry.app)
    }
    return ranked.sorted { a, b in
      if a.tier != b.tier { return a.tier < b.tier }
      if a.name.count != b.name.count { return a.name.count < b.name.count }
      if a.name != b.name { return a.name.lexicographicallyPrecedes(b.name) }
      if a.app.name != b.app.name { return a.app.name < b.app.name }
      return a.app.id < b.app.id
    }
    .prefix(limit).map(\.app)
  }

  static func tier(_ name: [UInt8], _ summary: [UInt8], _ term: [UInt8]) -> Int? {
    if name == term { return 0 }
    if name.starts(with: term) { return 1 }
    let starts = occurrences(of: term, in: name)
    let isWord: (Int) -> Bool = { start in
      let end = start + term.count
      let left = start == 0 || separator(name[start - 1]) || separator(term[0])
      let right = end == name.count || separator(name[end]) || separator(term[term.count - 1])
      return left && right
    }
    if starts.contains(where: isWord) { return 2 }
    if !starts.isEmpty { return 3 }
    if !occurrences(of: term, in: summary).isEmpty { return 4 }
    return nil
  }

  static func occurrences(of term: [UInt8], in text: [UInt8]) -> [Int] {
    guard text.count >= term.count else { return [] }
    var starts: [Int] = []
    for start in 0...(text.count - term.count) {
      var offset = 0
      while offset < term.count && text[start + offset] == term[offset] { offset += 1 }
      if offset == term.count { starts.append(start) }
    }
    return starts
  }

  static func separator(_ byte: UInt8) -> Bool {
    !(byte >= 0x80 || (byte >= 0x30 && byte <= 0x39)
      || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7a))
  }
}

extension App {
  /// Short and unique, for readable failure messages.
  var label: String { "\(id):\(name)" }
}
