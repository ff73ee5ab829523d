import Foundation
import Testing

@testable import AppSearch

@Suite struct ModelTests {
  @Test func jsonOmitsNilFields() throws {
    #expect(
      try json(App(id: 7, name: "bash", genre: "shells"))
        == #"{"genre":"shells","id":7,"name":"bash"}"#)
  }

  @Test func jsonUsesPlainCamelCaseKeysAndRoundTrips() throws {
    let app = App(
      id: 1, name: "Maps", version: "2", genre: "Navigation", developer: "Apple",
      summary: "Find places.", url: "https://apps.apple.com/app/id1", rating: 4.5)
    let text = try json(app)
    #expect(
      text
        == #"{"developer":"Apple","genre":"Navigation","id":1,"name":"Maps","rating":4.5,"#
        + #""summary":"Find places.","url":"https://apps.apple.com/app/id1","version":"2"}"#)
    #expect(try JSONDecoder().decode(App.self, from: Data(text.utf8)) == app)
  }

  @Test func queryHasStoreDefaults() {
    let query = SearchQuery(term: "maps")
    #expect(query.country == "us" && query.limit == 20)
  }

  @Test func failuresReadWell() {
    let failures: [SearchFailure] = [
      .httpStatus(503), .timedOut, .unreachable("unknown host example.invalid"),
      .malformedReply("missing results"),
      .catalogUnavailable(path: "/var/lib/dpkg/status", reason: "Permission denied"),
    ]
    let texts = failures.map(\.description)
    #expect(Set(texts).count == failures.count)
    #expect(texts[0].contains("503"))
    #expect(texts[2].contains("example.invalid"))
    #expect(texts[3].contains("missing results"))
    #expect(texts[4].contains("/var/lib/dpkg/status") && texts[4].contains("Permission denied"))
  }
}
