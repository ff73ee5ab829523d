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
    #expect(try await names("\u{00A0}gtk\u{3000}") == expected)  // Unicode spaces too
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
