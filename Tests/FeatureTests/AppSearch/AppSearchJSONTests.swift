import AppSearch
import BlocCore
import FeatureKit
import Testing

/// The exact JSON of search events and state, as documented in FEATURES.md.
@Suite struct AppSearchJSONTests {
  @Test(
    arguments: [
      (AppSearchEvent.search("maps"), #"{"term":"maps","type":"search"}"#),
      (.toggleMark(123), #"{"id":123,"type":"toggleMark"}"#),
      (.clear, #"{"type":"clear"}"#),
      (.clearMarks, #"{"type":"clearMarks"}"#),
    ])
  func eventsRoundTrip(event: AppSearchEvent, text: String) throws {
    #expect(try json(event) == text)
    #expect(try decode(AppSearchEvent.self, text) == event)
  }

  @Test(
    arguments: [
      (
        #"{"type":"find"}"#,
        "feature 'search' has no event 'find'; valid types: search, toggleMark, clear, clearMarks"
      ),
      (
        #"{"type":"search"}"#,
        #"missing field 'event.term' (string): Free text; surrounding whitespace is ignored. Example: {"type":"search","term":"maps"}"#
      ),
      (#"{"type":"search","term":5}"#, "field 'event.term' must be string, got 5"),
      (
        #"{"type":"toggleMark"}"#,
        #"missing field 'event.id' (integer 1…9007199254740991): The app's id, as in results or marks. Example: {"type":"toggleMark","id":42}"#
      ),
      (
        #"{"type":"toggleMark","id":"42"}"#,
        #"field 'event.id' must be integer 1…9007199254740991, got "42""#
      ),
      // Issue 10.3: ids a JavaScript client would round are refused.
      (
        #"{"type":"toggleMark","id":9007199254740992}"#,
        "field 'event.id' must be integer 1…9007199254740991, got 9007199254740992"
      ),
    ])
  func badEventsAreRefusedNamingFieldAndWhatIsAccepted(text: String, message: String) {
    let actual = decodingMessage(AppSearchEvent.self, text)
    #expect(actual == message)
  }

  @Test func stateRoundTripsWithEachActivity() throws {
    let maps = Mark(id: 42, name: "Maps", backend: .itunes)
    let found = AppSearchState(
      term: "maps", results: [App(id: 42, name: "Maps", genre: "Navigation")],
      marks: [maps, Mark(id: 7, name: "Old", backend: nil), maps])
    let text =
      #"{"activity":{"status":"idle"},"marks":[{"id":7,"name":"Old"},"#
      + #"{"backend":"itunes","id":42,"name":"Maps"}],"#
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

  @Test func declarationListsEveryEventAndField() {
    #expect(AppSearchEvent.declaration.types == ["search", "toggleMark", "clear", "clearMarks"])
    #expect(AppSearchState.shape.map(\.name) == ["term", "results", "marks", "activity"])
    #expect(Mark.shape.map(\.name) == ["id", "name", "backend"])
  }
}
