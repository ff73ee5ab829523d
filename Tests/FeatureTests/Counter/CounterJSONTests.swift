import BlocCore
import Counter
import FeatureKit
import Testing

/// The exact JSON of counter events and state, as documented in FEATURES.md.
@Suite struct CounterJSONTests {
  @Test(
    arguments: [
      (CounterEvent.increment, #"{"type":"increment"}"#),
      (.decrement, #"{"type":"decrement"}"#),
      (.reset, #"{"type":"reset"}"#),
      (.set(-7), #"{"type":"set","value":-7}"#),
    ])
  func eventsRoundTrip(event: CounterEvent, text: String) throws {
    #expect(try json(event) == text)
    #expect(try decode(CounterEvent.self, text) == event)
  }

  @Test(
    arguments: [
      (
        #"{"type":"jump"}"#,
        "feature 'counter' has no event 'jump'; valid types: increment, decrement, reset, set"
      ),
      (#"{}"#, "missing field 'event.type' (one of: increment, decrement, reset, set)"),
      (
        #"{"type":null}"#,
        "field 'event.type' must be a string (one of: increment, decrement, reset, set), got null"
      ),
      (#""increment""#, #"a counter event must be a JSON object with a "type""#),
      (
        #"{"type":"set"}"#,
        #"missing field 'event.value' (integer): The new count. Example: {"type":"set","value":5}"#
      ),
      (#"{"type":"set","value":"5"}"#, #"field 'event.value' must be integer, got "5""#),
      (
        #"{"type":"set","value":1.5}"#,
        "field 'event.value' must be integer written as digits only (like 5), got a number with a fraction or an exponent"
      ),
      (
        #"{"type":"set","value":null}"#,
        #"missing field 'event.value' (integer): The new count. Example: {"type":"set","value":5}"#
      ),
      (#"{"type":"set","value":{}}"#, "field 'event.value' must be integer, got an object"),
      (
        #"{"type":"increment","by":5}"#,
        "event 'increment' has no field 'by' (at 'event.by'); it takes no fields"
      ),
      // Issue 10.2: exact or refused, and never an echo of a huge input.
      (
        #"{"type":"set","value":0.0000000000000000000000000000001}"#,
        "field 'event.value' must be integer written as digits only (like 5), got a number with a fraction or an exponent"
      ),
      (
        #"{"type":"set","value":-9223372036854775809}"#,
        "field 'event.value' must be integer, got a number out of range (integers are -9223372036854775808…9223372036854775807)"
      ),
      (
        #"{"type":"set","value":""# + String(repeating: "x", count: 5000) + #""}"#,
        #"field 'event.value' must be integer, got ""# + String(repeating: "x", count: 60) + #"…""#
      ),
    ])
  func badEventsAreRefusedNamingFieldAndWhatIsAccepted(text: String, message: String) {
    let actual = decodingMessage(CounterEvent.self, text)
    #expect(actual?.hasPrefix(message) == true, "got: \(actual ?? "no error")")
    #expect((actual?.count ?? 0) < 200, "messages quote little of the input")
  }

  @Test func stateRoundTrips() throws {
    #expect(try json(CounterState(count: 3)) == #"{"count":3}"#)
    #expect(try decode(CounterState.self, #"{"count":-2}"#) == CounterState(count: -2))
  }

  @Test func declarationListsEveryEvent() throws {
    #expect(CounterEvent.declaration.types == ["increment", "decrement", "reset", "set"])
    #expect(
      CounterEvent.declaration.cases.last?.fields == [
        FieldShape("value", .integer(), "The new count.", example: "5")
      ])
    #expect(CounterState.shape.map(\.name) == ["count"])
  }
}
