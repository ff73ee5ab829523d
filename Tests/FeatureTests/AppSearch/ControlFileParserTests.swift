import Foundation
import Testing

@testable import AppSearch

/// dpkg status and apt `Packages` files, written as bytes so fixtures can
/// hold CRLF and broken UTF-8, read through the same path as production.
@Suite struct ControlFileParserTests {
  static let status = """
    Package: bash
    Status: install ok installed
    Priority: required
    Section: shells
    Maintainer: Matthias Klose <doko@debian.org>
    Version: 5.2.15-2+b7
    Description: GNU Bourne Again SHell
     Bash is an sh-compatible command language interpreter.
     .
     It also incorporates useful features.

    Package: vim
    Status: install ok installed
    Version: 2:9.0.1378-2
    Section: editors
    Description: Vi IMproved - enhanced vi editor

    Package: oldtool
    Status: deinstall ok config-files
    Version: 1.0
    Description: leftover configuration only

    package: lowercase-fields
    VERSION: 3
    this line has no colon and is skipped
    Description:
     .
     first real line of a description with an empty synopsis

    Priority: optional
    Section: stanza-without-package

    Package: bare
    """

  /// Packages list with CRLF lines, a whitespace-only separator, broken
  /// UTF-8, duplicates of dpkg entries, and no newline at the end.
  static var packages: [UInt8] {
    var bytes = Array(
      """
      Package: vim\r
      Version: 2:9.1.0000-1\r
      Section: editors\r
      Description: a newer vim from the archive\r
      \r
      Package: oldtool\r
      Version: 2.0\r
      Description: the archive version\r
      \u{20}\u{20}\r
      Package: weird\r
      Maintainer: Bad\u{20}
      """.utf8)
    bytes += [0xff, 0xfe, 0x41]  // invalid UTF-8, then "A"
    bytes += Array(
      """
      \r
      Description: multi\r
       line\r
      Package-List: ignored\r

      Package: vim\r
      Version: 0.0-second-copy-in-the-same-list
      """.utf8)
    return bytes
  }

  func load() throws -> [String: App] {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let files = [
      try directory.write("status", Self.status),
      try directory.write("archive_Packages", bytes: Self.packages),
    ]
    let apps = try CatalogSource.apps(fromFiles: files)
    return Dictionary(uniqueKeysWithValues: apps.map { ($0.name, $0) })
  }

  @Test func readsAllFieldsOfAStanza() throws {
    let bash = try #require(try load()["bash"])
    #expect(
      bash
        == App(
          id: 8_126_059_506_875_743, name: "bash", version: "5.2.15-2+b7", genre: "shells",
          developer: "Matthias Klose <doko@debian.org>", summary: "GNU Bourne Again SHell"))
  }

  @Test func findsEveryPackageOnce() throws {
    let names = try load().keys.sorted()
    #expect(names == ["bare", "bash", "lowercase-fields", "oldtool", "vim", "weird"])
  }

  @Test func missingFieldsAreNil() throws {
    let bare = try #require(try load()["bare"])
    #expect(bare == App(id: StableID.of("bare"), name: "bare"))
  }

  @Test func fieldNamesAreCaseInsensitiveAndEmptySynopsisUsesFirstLine() throws {
    let app = try #require(try load()["lowercase-fields"])
    #expect(app.version == "3")
    #expect(app.summary == "first real line of a description with an empty synopsis")
  }

  @Test func installedDpkgEntryBeatsArchive() throws {
    #expect(try load()["vim"]?.version == "2:9.0.1378-2")
  }

  @Test func archiveBeatsRemovedPackageLeftovers() throws {
    let oldtool = try #require(try load()["oldtool"])
    #expect(oldtool.version == "2.0")
    #expect(oldtool.summary == "the archive version")
  }

  @Test func crlfAndBrokenUTF8AreTolerated() throws {
    let weird = try #require(try load()["weird"])
    #expect(weird.developer == "Bad \u{FFFD}\u{FFFD}A")
    #expect(weird.summary == "multi")
    #expect(weird.version == nil)
  }

  @Test func idsAreStableAcrossLoadsAndProcesses() throws {
    let first = try load().mapValues(\.id)
    let second = try load().mapValues(\.id)
    #expect(first == second)
    // A fixed value: saved ids must survive a restart or an upgrade (version 1's 63-bit ids
    // migrate: see SavedMarks).
    #expect(first["bash"] == 8_126_059_506_875_743)
    // Issue 10.3: every id is exact for clients that read numbers as doubles.
    #expect(first.values.allSatisfy { $0 > 0 && $0 <= App.maximumID })
  }

  @Test func missingFileIsReportedWithItsPath() async throws {
    let service = PackageCatalogService(files: ["/nonexistent/status"])
    await #expect(
      throws: SearchFailure.catalogUnavailable(
        path: "/nonexistent/status", reason: "No such file or directory")
    ) {
      try await service.search(SearchQuery(term: "bash"))
    }
  }

  @Test func preloadReadsTheFilesUpFront() async throws {
    let directory = try TemporaryDirectory()
    let service = PackageCatalogService(files: [try directory.write("status", Self.status)])
    try await service.preload()
    directory.remove()  // searches now use what was loaded
    #expect(try await service.search(SearchQuery(term: "vim")).map(\.version) == ["2:9.0.1378-2"])
    await #expect(throws: SearchFailure.self) {
      try await PackageCatalogService(files: [directory.path + "/status"]).preload()
    }
  }

  @Test func failedLoadIsRetriedOnTheNextSearch() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = (directory.path as NSString).appendingPathComponent("status")
    let service = PackageCatalogService(files: [path])
    await #expect(throws: SearchFailure.self) {
      try await service.search(SearchQuery(term: "bash"))
    }
    try directory.write("status", Self.status)
    let apps = try await service.search(SearchQuery(term: "bash"))
    #expect(apps.map(\.name) == ["bash"])
  }
}
