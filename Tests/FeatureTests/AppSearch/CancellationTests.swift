import Foundation
import Testing

@testable import AppSearch

/// A cancelled search throws `CancellationError` and never returns results.
@Suite struct CancellationTests {
  @Test func cancellingAbortsTheHTTPRequest() async throws {
    let server = try LoopbackHTTPServer(.neverAnswer)
    defer { server.stop() }
    let service = ITunesSearchService(baseURL: server.baseURL, timeout: .seconds(300))
    let search = Task { try await service.search(SearchQuery(term: "slow")) }
    #expect(await server.waitForRequests(1))
    let start = ContinuousClock.now
    search.cancel()
    await #expect(throws: CancellationError.self) { try await search.value }
    #expect(
      ContinuousClock.now - start < .seconds(120),
      "ended by cancellation, well before the 300 s timeout")
    // The connection is really closed, not just abandoned.
    #expect(await server.waitForClientHangUp())
  }

  @Test func cancelledTaskDoesNotEvenAsk() async throws {
    let server = try LoopbackHTTPServer(.respond(status: 200, body: #"{"results": []}"#))
    defer { server.stop() }
    let service = ITunesSearchService(baseURL: server.baseURL)
    let search = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await service.search(SearchQuery(term: "maps"))
    }
    await #expect(throws: CancellationError.self) { try await search.value }
  }

  @Test func cancelledCatalogSearchReturnsNoResults() async throws {
    let service = PackageCatalogService(entries: [App(id: 1, name: "bash")])
    let search = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await service.search(SearchQuery(term: "bash"))
    }
    await #expect(throws: CancellationError.self) { try await search.value }
    // The service itself is fine afterwards.
    #expect(try await service.search(SearchQuery(term: "bash")).map(\.name) == ["bash"])
  }

  @Test func concurrentFirstSearchesShareOneLoad() async throws {
    let apps = (0..<2000).map { App(id: Int64($0), name: "pkg-\($0)") }
    let service = PackageCatalogService(entries: apps)
    let results = try await withThrowingTaskGroup(of: [String].self) { group in
      for _ in 0..<16 {
        group.addTask { try await service.search(SearchQuery(term: "pkg-1", limit: 3)).map(\.name) }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.count == 16)
    #expect(results.allSatisfy { $0 == ["pkg-1", "pkg-10", "pkg-11"] })
  }
}
