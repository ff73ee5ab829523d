import Foundation
import Testing

@testable import AppSearch

/// Ranking: exact > prefix > whole word > substring of name > summary;
/// ties by shorter name, then alphabetical.
@Suite struct CatalogRankingTests {
  static let fixture: [App] = [
    App(id: 1, name: "zenity", summary: "Display GTK dialogs from scripts"),
    App(id: 2, name: "libgtk-3-0", summary: "GTK graphical user interface library"),
    App(id: 3, name: "python3-gtk", summary: "Python bindings"),
    App(id: 4, name: "gtkwave", summary: "waveform viewer"),
    App(id: 5, name: "ruby-gtk", summary: "Ruby bindings"),
    App(id: 6, name: "gtk", summary: "exact"),
    App(id: 7, name: "gtk-doc", summary: "docs"),
    App(id: 8, name: "GtkSourceView", summary: "text widget"),
    App(id: 9, name: "bash", summary: "GNU Bourne Again SHell"),
    App(id: 10, name: "Café", summary: "a coffee app"),
  ]

  func names(_ term: String, limit: Int = 20) async throws -> [String] {
    let service = PackageCatalogService(entries: Self.fixture)
    return try await service.search(SearchQuery(term: term, limit: limit)).map(\.name)
  }

  @Test func tiersComeInOrder() async throws {
    #expect(
      try await names("gtk") == [
        "gtk",  // exact
        "gtk-doc", "gtkwave", "GtkSourceView",  // prefix, shorter first
        "ruby-gtk", "python3-gtk",  // whole word
        "libgtk-3-0",  // substring
        "zenity",  // summary only
      ])
  }

  @Test func isCaseInsensitiveAndIgnoresSurroundingSpace() async throws {
    let expected = try await names("gtk")
    #expect(try await names("GTK") == expected)
    #expect(try await names("  gTk\t") == expected)
  }

  @Test func respectsLimit() async throws {
    #expect(try await names("gtk", limit: 3) == ["gtk", "gtk-doc", "gtkwave"])
    #expect(try await names("gtk", limit: 0) == [])
  }

  @Test(arguments: ["", "   ", "\t\n"])
  func blankTermFindsNothing(term: String) async throws {
    #expect(try await names(term) == [])
  }

  @Test func shortTermsUseTheSameTiers() async throws {
    // One byte (scanned) and two bytes (answered by the pair index).
    #expect(try await names("z") == ["zenity"])
    #expect(try await names("-3") == ["libgtk-3-0"])  // "-3" brings its own boundary
    #expect(try await names("ba") == ["bash"])
  }

  @Test func matchesUnicodeCaseAndNormalization() async throws {
    #expect(try await names("CAFÉ") == ["Café"])
    #expect(try await names("cafe\u{301}") == ["Café"])  // decomposed é
  }

  @Test func summaryMatchesDoNotRepeatNameMatches() async throws {
    #expect(try await names("bindings") == ["ruby-gtk", "python3-gtk"])
    #expect(try await names("library") == ["libgtk-3-0"])
  }

  @Test func unknownTermFindsNothing() async throws {
    #expect(try await names("qqq") == [])
  }

  /// The optimized search (index, early stops) must agree with a plain
  /// sort-everything reference on random catalogs and random terms.
  @Test func agreesWithReferenceRanking() async throws {
    var random = SplitMix64(seed: 0x5eed)
    for round in 0..<10 {
      let apps = (0..<400).map { index in
        App(
          id: Int64(index), name: random.text(from: "abcA-._+1", length: 1...8),
          summary: random.text(from: "ab c-", length: 0...12))
      }
      let service = PackageCatalogService(entries: apps)
      let reference = ReferenceRanking(apps)
      for _ in 0..<100 {
        let source = apps.randomElement(using: &random)!
        let term =
          Bool.random(using: &random)
          ? random.piece(of: source.name) : random.text(from: "abcAB-. ", length: 1...4)
        let limit = Int.random(in: 1...15, using: &random)
        let found = try await service.search(SearchQuery(term: term, limit: limit))
        let expected = reference.search(term, limit: limit)
        #expect(
          found.map(\.label) == expected.map(\.label),
          "round \(round), term \"\(term)\", limit \(limit)")
      }
    }
  }
}

extension CatalogRankingTests {
  /// Big enough for the long-prefix-run strategy (over 1,024 "l…" names).
  @Test func largeCatalogAgreesWithReferenceRanking() async throws {
    var random = SplitMix64(seed: 0xb16)
    let generated = (0..<1600).map { index in
      let stem = random.text(from: "abcdefg", length: 1...5)
      let name = ["lib\(stem)\(index % 7)", "lib\(stem)-dev", "lib-\(stem)", stem][index % 4]
      return App(
        id: Int64(index), name: name, summary: random.text(from: "abc lib-", length: 0...20))
    }
    let apps = generated + [App(id: 9000, name: "Lib"), App(id: 9001, name: "l")]
    let service = PackageCatalogService(entries: apps)
    let reference = ReferenceRanking(apps)
    let fixed = ["l", "li", "lib", "LIB", "libc", "lib-", "-dev", "a", "ab", "py", "b-d"]
    let pieces = (0..<12).map { _ in random.piece(of: apps.randomElement(using: &random)!.name) }
    for term in fixed + pieces {
      // A shorter limit must give a prefix of the longer ranking.
      let expected = reference.search(term, limit: 300).map(\.label)
      for limit in [1, 20, 300] {
        let found = try await service.search(SearchQuery(term: term, limit: limit))
        #expect(
          found.map(\.label) == Array(expected.prefix(limit)), "term \"\(term)\", limit \(limit)")
      }
    }
  }
}

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

/// A small seeded generator, so a failing case can be replayed.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    var z = state
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }

  mutating func text(from alphabet: String, length: ClosedRange<Int>) -> String {
    let letters = Array(alphabet)
    let count = Int.random(in: length, using: &self)
    return String((0..<count).map { _ in letters.randomElement(using: &self)! })
  }

  /// A random non-empty slice of `text`.
  mutating func piece(of text: String) -> String {
    let characters = Array(text)
    let start = Int.random(in: 0..<characters.count, using: &self)
    let end = Int.random(in: (start + 1)...characters.count, using: &self)
    return String(characters[start..<end])
  }
}
