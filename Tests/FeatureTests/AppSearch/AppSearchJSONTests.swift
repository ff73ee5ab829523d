import AppSearch
import BlocCore
import Testing

/// The exact JSON of search events and state, as documented in FEATURES.md.
@Suite struct AppSearchJSONTests {
  @Test(
    arguments: [
      (AppSearchEvent.search("maps"), #"{"term":"maps","type":"search"}"#),
      (.toggleMark(123), #"{"id":123,"type":"toggleMark"}"#),
      (.clear, #"{"type":"clear"}"#),
    ])
  func eventsRoundTrip(event: AppSearchEvent, text: String) throws {
    #expect(try json(event) == text)
    #expect(try decode(AppSearchEvent.self, text) == event)
  }

  @Test(
    arguments: [
      (
        #"{"type":"find"}"#,
        #"unknown search event type "find"; accepted: search, toggleMark, clear"#
      ),
      (#"{"type":"search"}"#, #"search event "search" needs field "term": a string"#),
      (
        #"{"type":"search","term":5}"#,
        #"field "term" of search event "search" must be a string; got 5"#
      ),
      (
        #"{"type":"toggleMark"}"#, #"search event "toggleMark" needs field "id": an integer app id"#
      ),
      (
        #"{"type":"toggleMark","id":"42"}"#,
        #"field "id" of search event "toggleMark" must be an integer app id; got "42""#
      ),
    ])
  func badEventsAreRefusedNamingFieldAndWhatIsAccepted(text: String, message: String) {
    let actual = decodingMessage(AppSearchEvent.self, text)
    #expect(actual?.hasPrefix(message) == true, "got: \(actual ?? "no error")")
  }

  @Test func stateRoundTripsWithEachActivity() throws {
    let found = AppSearchState(
      term: "maps", results: [App(id: 42, name: "Maps", genre: "Navigation")], marks: [42, 7, 42])
    let text =
      #"{"activity":{"status":"idle"},"marks":[7,42],"#
      + #""results":[{"genre":"Navigation","id":42,"name":"Maps"}],"term":"maps"}"#
    #expect(try json(found) == text)
    #expect(try decode(AppSearchState.self, text) == found)

    let failed = AppSearchState(
      term: "x", activity: .failed("The search service did not answer in time."))
    let failedText =
      #"{"activity":{"message":"The search service did not answer in time.","status":"failed"},"#
      + #""marks":[],"results":[],"term":"x"}"#
    #expect(try json(failed) == failedText)
    #expect(try decode(AppSearchState.self, failedText) == failed)
    #expect(try json(SearchActivity.loading) == #"{"status":"loading"}"#)
  }

  @Test func schemaListsEveryEventAndField() {
    #expect(AppSearchEvent.schema.map(\.type) == ["search", "toggleMark", "clear"])
    #expect(AppSearchState.shape.map(\.name) == ["term", "results", "marks", "activity"])
  }
}
