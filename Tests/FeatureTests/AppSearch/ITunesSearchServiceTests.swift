import Foundation
import Testing

@testable import AppSearch

/// The iTunes client against a real HTTP server on the loopback interface.
@Suite struct ITunesSearchServiceTests {
  static let reply = """
    {"resultCount": 2, "results": [
      {"trackId": 284882215, "trackName": "Facebook", "bundleId": "com.facebook.Facebook",
       "primaryGenreName": "Social Networking", "averageUserRating": 4.5,
       "userRatingCount": 100, "version": "1.0", "artistName": "Meta",
       "description": "\\n  Connect with friends.\\nAnd more.",
       "trackViewUrl": "https://apps.apple.com/app/id284882215"},
      {"trackId": 2, "trackName": "Minimal"}
    ]}
    """

  func search(
    _ behavior: LoopbackHTTPServer.Behavior, query: SearchQuery = SearchQuery(term: "maps"),
    timeout: Duration = .seconds(5)
  ) async throws -> (apps: [App], requests: [String]) {
    let server = try LoopbackHTTPServer(behavior)
    defer { server.stop() }
    let service = ITunesSearchService(baseURL: server.baseURL, timeout: timeout)
    let apps = try await service.search(query)
    return (apps, server.requestLines)
  }

  @Test func mapsTheDocumentedReply() async throws {
    let (apps, _) = try await search(.respond(status: 200, body: Self.reply))
    #expect(
      apps == [
        App(
          id: 284_882_215, name: "Facebook", version: "1.0", genre: "Social Networking",
          developer: "Meta", summary: "Connect with friends.",
          url: "https://apps.apple.com/app/id284882215", rating: 4.5),
        App(id: 2, name: "Minimal"),
      ])
  }

  @Test func encodesTheTermWithoutInjectingParameters() async throws {
    let query = SearchQuery(term: "maps & more+1 é", country: "de", limit: 7)
    let (_, requests) = try await search(.respond(status: 200, body: Self.reply), query: query)
    #expect(
      requests == [
        "GET /search?term=maps%20%26%20more%2B1%20%C3%A9&media=software&country=de&limit=7 HTTP/1.1"
      ])
    // And a standard parser reads back exactly the four parameters.
    let target = try #require(requests.first?.split(separator: " ")[1])
    let items = try #require(URLComponents(string: String(target))?.queryItems)
    #expect(items.map(\.name) == ["term", "media", "country", "limit"])
    #expect(items.first?.value == "maps & more+1 é")
  }

  @Test(arguments: [
    ("a=b#c?d/e;f", "a%3Db%23c%3Fd%2Fe%3Bf"),
    ("  padded  ", "padded"),
    ("100%", "100%25"),
    ("日本", "%E6%97%A5%E6%9C%AC"),
  ])
  func encodesReservedCharacters(term: String, encoded: String) async throws {
    let (_, requests) = try await search(
      .respond(status: 200, body: Self.reply), query: SearchQuery(term: term))
    #expect(requests.first?.hasPrefix("GET /search?term=\(encoded)&media=software&") == true)
  }

  @Test func keepsBaseQueryAndCapsLimit() async throws {
    let server = try LoopbackHTTPServer(.respond(status: 200, body: Self.reply))
    defer { server.stop() }
    let base = URL(string: "http://127.0.0.1:\(server.port)/search?lang=en_us")!
    let service = ITunesSearchService(baseURL: base)
    let apps = try await service.search(SearchQuery(term: "x", limit: 1))
    _ = try await service.search(SearchQuery(term: "x", limit: 5000))
    #expect(apps.map(\.name) == ["Facebook"])
    #expect(
      server.requestLines == [
        "GET /search?lang=en_us&term=x&media=software&country=us&limit=1 HTTP/1.1",
        "GET /search?lang=en_us&term=x&media=software&country=us&limit=200 HTTP/1.1",
      ])
  }

  @Test func blankTermSendsNothing() async throws {
    let (apps, requests) = try await search(
      .respond(status: 200, body: Self.reply), query: SearchQuery(term: " \n "))
    #expect(apps.isEmpty && requests.isEmpty)
  }

  @Test func serverErrorIsHTTPStatus() async throws {
    await #expect(throws: SearchFailure.httpStatus(500)) {
      try await search(.respond(status: 500, body: "oops"))
    }
  }

  @Test(arguments: [
    ("<html>not json</html>", "not JSON"),
    (#"{"resultCount": 1}"#, "missing results"),
    (#"{"results": [{"trackId": 1}]}"#, "result 0 has no trackName"),
    (#"{"results": [{"trackName": "x"}]}"#, "result 0 has no trackId"),
    (
      #"{"results": [{"trackId": "one", "trackName": "x"}]}"#,
      "unexpected value at results.0.trackId"
    ),
  ])
  func unexpectedBodyIsMalformedReply(body: String, reason: String) async throws {
    await #expect(throws: SearchFailure.malformedReply(reason)) {
      try await search(.respond(status: 200, body: body))
    }
  }

  @Test func silentServerTimesOut() async throws {
    let start = ContinuousClock.now
    await #expect(throws: SearchFailure.timedOut) {
      try await search(.neverAnswer, timeout: .milliseconds(500))
    }
    // It waited for the timeout (no upper bound: a loaded machine may take longer to notice).
    let elapsed = ContinuousClock.now - start
    #expect(elapsed >= .milliseconds(450), "took \(elapsed)")
  }

  @Test func closedPortIsUnreachable() async throws {
    let port = try LoopbackHTTPServer.closedPort()
    let service = ITunesSearchService(baseURL: URL(string: "http://127.0.0.1:\(port)/search")!)
    await #expect(throws: SearchFailure.unreachable("cannot connect to 127.0.0.1:\(port)")) {
      try await service.search(SearchQuery(term: "maps"))
    }
  }
}
