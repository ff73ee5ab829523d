import BlocCore
import Counter
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

  @Test func extraFieldsAreIgnored() throws {
    #expect(try decode(CounterEvent.self, #"{"type":"increment","by":5}"#) == .increment)
  }

  @Test(
    arguments: [
      (
        #"{"type":"jump"}"#,
        #"unknown counter event type "jump"; accepted: increment, decrement, reset, set"#
      ),
      (#"{}"#, #"a counter event needs field "type": one of increment, decrement, reset, set"#),
      (#"{"type":null}"#, #"field "type" of a counter event must be a string"#),
      (#""increment""#, #"a counter event must be a JSON object with a "type""#),
      (#"{"type":"set"}"#, #"counter event "set" needs field "value": an integer"#),
      (
        #"{"type":"set","value":"5"}"#,
        #"field "value" of counter event "set" must be an integer; got "5""#
      ),
      (
        #"{"type":"set","value":1.5}"#,
        #"field "value" of counter event "set" must be an integer; got 1.5"#
      ),
      (
        #"{"type":"set","value":null}"#,
        #"field "value" of counter event "set" must be an integer; got null"#
      ),
      (
        #"{"type":"set","value":{}}"#,
        #"field "value" of counter event "set" must be an integer; got an object"#
      ),
    ])
  func badEventsAreRefusedNamingFieldAndWhatIsAccepted(text: String, message: String) {
    let actual = decodingMessage(CounterEvent.self, text)
    #expect(actual?.hasPrefix(message) == true, "got: \(actual ?? "no error")")
  }

  @Test func stateRoundTrips() throws {
    #expect(try json(CounterState(count: 3)) == #"{"count":3}"#)
    #expect(try decode(CounterState.self, #"{"count":-2}"#) == CounterState(count: -2))
  }

  @Test func schemaListsEveryEvent() throws {
    #expect(CounterEvent.schema.map(\.type) == ["increment", "decrement", "reset", "set"])
    #expect(CounterEvent.schema.last?.fields == [FieldSchema("value", .integer, "The new count.")])
    #expect(CounterState.shape.map(\.name) == ["count"])
  }
}
