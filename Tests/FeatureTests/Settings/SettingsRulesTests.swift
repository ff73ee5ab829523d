import Settings
import Testing

/// Every validation rule, on the pure state (no bloc).
@Suite struct SettingsRulesTests {
  @Test func defaults() {
    let settings = SettingsState.defaults
    #expect(settings.searchBackend == .packages)
    #expect(settings.searchCountry == "us")
    #expect(settings.searchLimit == 20)
    #expect(settings.searchThrottleMs == 200)
    #expect(settings.counterStep == 1)
    #expect(settings.counterMinimum == nil && settings.counterMaximum == nil)
  }

  @Test(
    arguments: [
      (SettingKey.searchBackend, SettingValue.string("itunes"), SettingValue.string("itunes")),
      (.searchBackend, "packages", "packages"),
      (.searchCountry, "DE", "de"),
      (.searchCountry, "gb", "gb"),
      (.searchLimit, 1, 1),
      (.searchLimit, 200, 200),
      (.searchThrottleMs, 0, 0),
      (.searchThrottleMs, 10_000, 10_000),
      (.counterStep, 1, 1),
      (.counterStep, 1_000_000, 1_000_000),
      (.counterMinimum, -5, -5),
      (.counterMaximum, 10, 10),
      (.counterMaximum, nil, nil),
    ])
  func acceptsValidValues(key: SettingKey, value: SettingValue, stored: SettingValue) throws {
    let settings = try SettingsState.defaults.setting(key, to: value)
    #expect(settings.value(of: key) == stored)
    for other in SettingKey.allCases where other != key {
      #expect(settings.value(of: other) == SettingsState.defaults.value(of: other))
    }
  }

  @Test(
    arguments: [
      (
        SettingKey.searchLimit, SettingValue.integer(500),
        "searchLimit must be an integer from 1 to 200; got 500"
      ),
      (.searchLimit, 0, "searchLimit must be an integer from 1 to 200; got 0"),
      (.searchLimit, "50", "searchLimit must be an integer from 1 to 200; got \"50\""),
      (.searchLimit, nil, "searchLimit must be an integer from 1 to 200; got null"),
      (.searchBackend, "bing", "searchBackend must be one of packages, itunes; got \"bing\""),
      (.searchBackend, "ITUNES", "searchBackend must be one of packages, itunes; got \"ITUNES\""),
      (.searchBackend, 1, "searchBackend must be one of packages, itunes; got 1"),
      (
        .searchCountry, "usa",
        "searchCountry must be a two-letter ISO 3166 country code such as \"us\" or \"de\"; got \"usa\""
      ),
      (.searchCountry, "u1", "searchCountry must be a two-letter"),
      (.searchCountry, "", "searchCountry must be a two-letter"),
      (.searchCountry, "üs", "searchCountry must be a two-letter"),
      (.searchCountry, 49, "searchCountry must be a two-letter"),
      (
        .searchThrottleMs, -1,
        "searchThrottleMs must be an integer from 0 to 10000 (milliseconds); got -1"
      ),
      (.searchThrottleMs, 10_001, "searchThrottleMs must be an integer from 0 to 10000"),
      (.counterStep, 0, "counterStep must be an integer of at least 1; got 0"),
      (.counterStep, -3, "counterStep must be an integer of at least 1; got -3"),
      (
        .counterMinimum, "low",
        "counterMinimum must be an integer, or null for no bound; got \"low\""
      ),
    ])
  func refusesInvalidValuesNamingSettingValueAndRule(
    key: SettingKey, value: SettingValue, message: String
  ) {
    #expect {
      _ = try SettingsState.defaults.setting(key, to: value)
    } throws: { error in
      (error as? SettingsError) == .invalidValue(key, value)
        && String(describing: error).hasPrefix(message)
    }
  }

  @Test func boundsMustNotCrossNamingBoth() throws {
    let bounded = try SettingsState.defaults.applying([
      .set(.counterMinimum, -5), .set(.counterMaximum, 10),
    ])
    #expect(throws: SettingsError.boundsCrossed(.counterMinimum, value: 11, other: 10)) {
      try bounded.setting(.counterMinimum, to: 11)
    }
    #expect(throws: SettingsError.boundsCrossed(.counterMaximum, value: -6, other: -5)) {
      try bounded.setting(.counterMaximum, to: -6)
    }
    #expect(
      "\(SettingsError.boundsCrossed(.counterMinimum, value: 11, other: 10))"
        == "counterMinimum 11 would be above counterMaximum 10; the minimum must not exceed the maximum"
    )
    #expect(
      "\(SettingsError.boundsCrossed(.counterMaximum, value: -6, other: -5))"
        == "counterMaximum -6 would be below counterMinimum -5; the minimum must not exceed the maximum"
    )
    // Equal bounds pin the count; clearing one bound lets the other move freely.
    #expect(try bounded.setting(.counterMinimum, to: 10).counterMinimum == 10)
    let open = try bounded.applying([.set(.counterMaximum, nil), .set(.counterMinimum, 50)])
    #expect(open.counterMinimum == 50 && open.counterMaximum == nil)
  }

  @Test func resetOneAndAll() throws {
    let changed = try SettingsState.defaults.applying([
      .set(.searchLimit, 50), .set(.searchBackend, "itunes"), .set(.counterMinimum, 3),
    ])
    let limitReset = try changed.applying(.reset(.searchLimit))
    #expect(limitReset.searchLimit == 20)
    #expect(limitReset.searchBackend == .itunes, "only the one setting is reset")
    #expect(try changed.applying(.reset(.counterMinimum)).counterMinimum == nil)
    #expect(try changed.applying(.resetAll) == .defaults)
  }

  @Test func unknownKeyListsTheValidOnes() throws {
    #expect(throws: SettingsError.unknownKey("colour")) { try SettingKey(named: "colour") }
    #expect(
      "\(SettingsError.unknownKey("colour"))"
        == "unknown setting \"colour\"; valid keys: searchBackend, searchCountry, searchLimit, "
        + "searchThrottleMs, counterStep, counterMinimum, counterMaximum")
    #expect(try SettingKey(named: "counterStep") == .counterStep)
  }
}
