import Foundation
import Testing

@testable import AppSearch

/// Against this machine's real package database, when it has one.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: "/var/lib/dpkg/status")))
struct SystemCatalogTests {
  /// Packages that every Debian-based system has installed.
  @Test(arguments: ["bash", "coreutils"])
  func essentialPackageComesFirst(name: String) async throws {
    let apps = try await PackageCatalogService.system.search(SearchQuery(term: name))
    let first = try #require(apps.first)
    #expect(first.name == name)
    #expect(first.id == StableID.of(name))
    #expect(first.version != nil)
    #expect(first.summary?.isEmpty == false)
    #expect(first.url == nil && first.rating == nil)
  }

  @Test func statusFileAloneWorksToo() async throws {
    let service = PackageCatalogService(files: ["/var/lib/dpkg/status"])
    let apps = try await service.search(SearchQuery(term: "BASH", limit: 5))
    #expect(apps.first?.name == "bash")
    #expect(apps.count <= 5)
  }
}
