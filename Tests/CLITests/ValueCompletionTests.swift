import StatectlCore
import Testing

/// Completion of values: `key=` offers the settings' keys (from `describe`, or the shipped
/// features without a daemon), `--outcome` the outcomes, `--event` the event types.
@Suite struct ValueCompletionTests {
  let completion = Completion(environment: { _ in nil }, uid: 999_999)

  @Test func settingKeysAfterKeyEquals() {
    let keys = completion.candidates(["send", "settings", "set", "key="])
    #expect(keys.contains("key=searchLimit"))
    #expect(keys.contains("key=counterStep"))
    #expect(keys.count == 7)
    #expect(
      completion.candidates(["send", "settings", "reset", "key=counterM"]) == [
        "key=counterMinimum", "key=counterMaximum",
      ])
    // A field without a list of values, and a raw JSON field: nothing.
    #expect(completion.candidates(["send", "counter", "set", "value:="]) == [])
    #expect(completion.candidates(["send", "search", "search", "term="]) == [])
  }

  @Test func monitorFilterValues() {
    #expect(completion.candidates(["monitor", "--outcome", "f"]) == ["failed"])
    #expect(completion.candidates(["monitor", "counter", "--event", "in"]) == ["increment"])
    #expect(completion.candidates(["monitor", "--e"]) == ["--event"])
    #expect(completion.candidates(["get", "counter", "--sel"]) == ["--select"])
    #expect(completion.candidates(["get", "counter", "--rep"]) == ["--repeat"])
    #expect(completion.candidates(["in"]) == ["info"])
  }
}
