import BlocCore
import FeatureKit
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
        "feature 'settings' has no event 'toggle'; valid types: set, reset, resetAll"
      ),
      (#"{"key":"searchLimit"}"#, "missing field 'event.type' (one of: set, reset, resetAll)"),
      (
        #"{"type":7}"#,
        "field 'event.type' must be a string (one of: set, reset, resetAll), got 7"
      ),
      (
        #"["set"]"#,
        #"a settings event must be a JSON object with a "type" (one of set, reset, resetAll)"#
      ),
      (
        #"{"type":"set","key":"colour","value":1}"#,
        #"field 'event.key' must be one of searchBackend | searchCountry | searchLimit | searchThrottleMs | counterStep | counterMinimum | counterMaximum, got "colour""#
      ),
      (
        #"{"type":"set","value":1}"#,
        #"missing field 'event.key' (one of searchBackend | searchCountry | searchLimit | searchThrottleMs | counterStep | counterMinimum | counterMaximum): The setting. Example: {"type":"set","key":"searchLimit","value":50}"#
      ),
      (
        #"{"type":"set","key":"searchLimit","value":"50"}"#,
        #"field 'event.value' must be an integer from 1 to 200 (for searchLimit), got "50""#
      ),
      (
        #"{"type":"set","key":"searchLimit","value":2.5}"#,
        "field 'event.value' must be integer written as digits only (like 5), got a number with a fraction or an exponent"
      ),
      // Issue 9.7: a missing value says its type and gives an example for its key.
      (
        #"{"type":"set","key":"searchLimit"}"#,
        #"missing field 'event.value' (integer 1…200 for searchLimit): The most results a search returns. Example: {"type":"set","key":"searchLimit","value":50}"#
      ),
      (
        #"{"type":"set","key":"counterStep","value":null}"#,
        "field 'event.value' must be an integer of at least 1 (for counterStep), got null"
      ),
      (
        #"{"type":"set","key":"searchBackend","value":1}"#,
        "field 'event.value' must be one of packages, itunes (for searchBackend), got 1"
      ),
      (
        #"{"type":"set","key":"counterMaximum","value":true}"#,
        "field 'event.value' must be an integer, a string or null, got true"
      ),
      (
        #"{"type":"reset","key":[1]}"#,
        "field 'event.key' must be one of searchBackend | searchCountry | searchLimit | searchThrottleMs | counterStep | counterMinimum | counterMaximum, got an array of 1"
      ),
      // Issue 12.3: an unknown field is refused whatever the other fields hold.
      (
        #"{"type":"set","key":"searchBackend","value":"packages","zzUnknownField":1}"#,
        "event 'set' has no field 'zzUnknownField' (at 'event.zzUnknownField'); its fields are key, value"
      ),
      (
        #"{"type":"set","key":"searchLimit","value":5,"zzUnknownField":1}"#,
        "event 'set' has no field 'zzUnknownField' (at 'event.zzUnknownField'); its fields are key, value"
      ),
      // Issue 9.7: an unknown field is reported as unknown, not as a missing one.
      (
        #"{"type":"set","kee":"searchLimit","value":5}"#,
        "event 'set' has no field 'kee' (at 'event.kee'); its fields are key, value"
      ),
      // Issue 10.2: a number is never rounded to an integer (JSONDecoder reads 1e-400 as the
      // integer 0, so that case is tested against the daemon, whose parser keeps the form).
      (
        #"{"type":"set","key":"counterMaximum","value":9223372036854775808}"#,
        "field 'event.value' must be integer, got a number out of range"
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
        == "a setting value must be an integer, a string or null")
  }

  @Test func declarationDescribesEveryEventAndSetting() {
    #expect(SettingsEvent.declaration.types == ["set", "reset", "resetAll"])
    #expect(SettingsState.shape.map(\.name) == SettingKey.allCases.map(\.rawValue))
    let limit = SettingsState.shape.first { $0.name == "searchLimit" }
    #expect(limit?.type == .integer(minimum: 1, maximum: 200))
    #expect(limit?.summary.contains("Default: 20") == true)
    #expect(
      SettingsState.shape.filter { !$0.isRequired }.map(\.name) == [
        "counterMinimum", "counterMaximum",
      ])
    // Issue 12: describe gives searchCountry's two-letter rule.
    let country = SettingsState.shape.first { $0.name == "searchCountry" }
    #expect(country?.type == .string(SettingKey.countryCode))
    #expect(country?.type.description.contains("two letters") == true)
    // Issue 7: a value whose type depends on the key is described as what it is.
    let value = SettingsEvent.declaration.eventCase("set")?.fields.last
    #expect(value?.type == .anyOf([.integer(), .string(), .null]))
  }
}
