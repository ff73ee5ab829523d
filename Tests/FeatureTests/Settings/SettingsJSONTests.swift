import BlocCore
import Settings
import Testing

/// The exact JSON of settings events and state, as documented in FEATURES.md.
@Suite struct SettingsJSONTests {
  @Test(
    arguments: [
      (SettingsEvent.set(.searchLimit, 50), #"{"key":"searchLimit","type":"set","value":50}"#),
      (.set(.searchBackend, "itunes"), #"{"key":"searchBackend","type":"set","value":"itunes"}"#),
      (.set(.counterMaximum, nil), #"{"key":"counterMaximum","type":"set","value":null}"#),
      (.reset(.searchLimit), #"{"key":"searchLimit","type":"reset"}"#),
      (.resetAll, #"{"type":"resetAll"}"#),
    ])
  func eventsRoundTrip(event: SettingsEvent, text: String) throws {
    #expect(try json(event) == text)
    #expect(try decode(SettingsEvent.self, text) == event)
  }

  @Test func anAbsentBoundValueClearsTheBound() throws {
    #expect(
      try decode(SettingsEvent.self, #"{"type":"set","key":"counterMinimum"}"#)
        == .set(.counterMinimum, nil))
  }

  @Test(
    arguments: [
      (
        #"{"type":"toggle"}"#,
        #"unknown settings event type "toggle"; accepted: set, reset, resetAll"#
      ),
      (
        #"{"key":"searchLimit"}"#,
        #"a settings event needs field "type": one of set, reset, resetAll"#
      ),
      (
        #"{"type":7}"#,
        #"field "type" of a settings event must be a string, one of set, reset, resetAll; got 7"#
      ),
      (
        #"["set"]"#,
        #"a settings event must be a JSON object with a "type" (one of set, reset, resetAll)"#
      ),
      (
        #"{"type":"set","key":"colour","value":1}"#,
        #"field "key" of settings event "set" must be one of searchBackend, searchCountry, searchLimit, searchThrottleMs, counterStep, counterMinimum, counterMaximum; got "colour""#
      ),
      (
        #"{"type":"set","value":1}"#,
        #"settings event "set" needs field "key": one of searchBackend"#
      ),
      (
        #"{"type":"set","key":"searchLimit","value":"50"}"#,
        #"field "value" of settings event "set" must be an integer from 1 to 200 (for searchLimit); got "50""#
      ),
      (
        #"{"type":"set","key":"searchLimit","value":2.5}"#,
        #"field "value" of settings event "set" must be an integer from 1 to 200 (for searchLimit); got 2.5"#
      ),
      (
        #"{"type":"set","key":"searchLimit"}"#,
        #"settings event "set" needs field "value": an integer from 1 to 200 (for searchLimit)"#
      ),
      (
        #"{"type":"set","key":"counterStep","value":null}"#,
        #"field "value" of settings event "set" must be an integer of at least 1 (for counterStep); got null"#
      ),
      (
        #"{"type":"set","key":"searchBackend","value":1}"#,
        #"field "value" of settings event "set" must be one of packages, itunes (for searchBackend); got 1"#
      ),
      (
        #"{"type":"set","key":"counterMaximum","value":true}"#,
        #"field "value" of settings event "set" must be an integer, or null for no bound (for counterMaximum); got true"#
      ),
      (
        #"{"type":"reset","key":[1]}"#,
        #"field "key" of settings event "reset" must be one of searchBackend"#
      ),
    ])
  func badEventsAreRefusedNamingFieldAndWhatIsAccepted(text: String, message: String) {
    let actual = decodingMessage(SettingsEvent.self, text)
    #expect(actual?.hasPrefix(message) == true, "got: \(actual ?? "no error")")
  }

  @Test func aValueOutOfRangeDecodesAndIsRefusedWhenHandled() throws {
    // Decoding checks the JSON type; the handler checks the range with a SettingsError.
    let event = try decode(SettingsEvent.self, #"{"type":"set","key":"searchLimit","value":500}"#)
    #expect(throws: SettingsError.invalidValue(.searchLimit, 500)) {
      try SettingsState.defaults.applying(event)
    }
  }

  @Test func stateRoundTrips() throws {
    let state = try SettingsState.defaults.applying([
      .set(.searchBackend, "itunes"), .set(.searchCountry, "se"), .set(.counterMaximum, 10),
    ])
    let text =
      #"{"counterMaximum":10,"counterMinimum":null,"counterStep":1,"searchBackend":"itunes","#
      + #""searchCountry":"se","searchLimit":20,"searchThrottleMs":200}"#
    #expect(try json(state) == text)
    #expect(try decode(SettingsState.self, text) == state)
  }

  @Test func aStateWithAnInvalidValueIsRefused() {
    #expect(
      decodingMessage(SettingsState.self, #"{"counterMinimum":5,"counterMaximum":1}"#)
        == "counterMaximum 1 would be below counterMinimum 5; the minimum must not exceed the maximum"
    )
    #expect(
      decodingMessage(SettingsState.self, #"{"searchCountry":[]}"#)
        == "a setting value must be an integer, a string or null; got an array")
  }

  @Test func schemaDescribesEveryEventAndSetting() {
    #expect(SettingsEvent.schema.map(\.type) == ["set", "reset", "resetAll"])
    #expect(SettingsState.shape.map(\.name) == SettingKey.allCases.map(\.rawValue))
    let limit = SettingsState.shape.first { $0.name == "searchLimit" }
    #expect(limit?.type == .integer(minimum: 1, maximum: 200))
    #expect(limit?.summary.contains("Default: 20") == true)
    #expect(
      SettingsState.shape.filter { !$0.required }.map(\.name) == [
        "counterMinimum", "counterMaximum",
      ])
  }
}
