import BlocCore
import BlocTest
import Foundation
import Settings
import Testing

@Suite struct SettingsBlocTests {
  @Test func setResetAndResetAll() async {
    await blocTest(
      build: { _ in SettingsBloc(storage: InMemoryStorage()) },
      act: { context in
        #expect(await context.bloc.send(.set(.searchLimit, 50)).isHandled)
        #expect(await context.bloc.send(.set(.searchBackend, "itunes")).isHandled)
        #expect(await context.bloc.send(.reset(.searchLimit)).isHandled)
        #expect(await context.bloc.send(.resetAll).isHandled)
      },
      expect: [
        .with(.set(.searchLimit, 50)),
        .with(.set(.searchLimit, 50), .set(.searchBackend, "itunes")),
        .with(.set(.searchBackend, "itunes")),
        .defaults,
      ])
  }

  /// Settings' own service: where its defaults come from.
  @Test func defaultsComeFromTheDefaultsSource() async {
    let custom = SettingsState.with(.set(.searchLimit, 5), .set(.searchBackend, "itunes"))
    await blocTest(
      build: { _ in
        SettingsBloc(storage: InMemoryStorage(), defaults: FixedSettingsDefaults(custom))
      },
      act: { context in
        #expect(context.bloc.state == custom)
        await context.bloc.send(.set(.searchLimit, 50))
        await context.bloc.send(.reset(.searchLimit))
        await context.bloc.send(.set(.searchCountry, "de"))
        await context.bloc.send(.resetAll)
      },
      expect: [
        .with(.set(.searchLimit, 50), .set(.searchBackend, "itunes")), custom,
        .with(.set(.searchLimit, 5), .set(.searchBackend, "itunes"), .set(.searchCountry, "de")),
        custom,
      ])
  }

  @Test func anInvalidValueIsRefusedAndTheStateKept() async {
    await blocTest(
      build: { _ in SettingsBloc(storage: InMemoryStorage()) },
      act: { context in
        let outcome = await context.bloc.send(.set(.searchLimit, 500))
        #expect(failure(outcome) == "searchLimit must be an integer from 1 to 200; got 500")
        #expect(context.bloc.state == .defaults)
        await context.bloc.send(.set(.counterMaximum, 10))
        let crossed = await context.bloc.send(.set(.counterMinimum, 11))
        #expect(
          failure(crossed)?.contains("counterMinimum 11 would be above counterMaximum 10") == true)
      },
      expect: [.with(.set(.counterMaximum, 10))],
      errors: [
        .equals(SettingsError.invalidValue(.searchLimit, 500)),
        .equals(SettingsError.boundsCrossed(.counterMinimum, value: 11, other: 10)),
      ])
  }

  @Test func eventsAddedTogetherNeverUndoEachOther() async throws {
    let bloc = SettingsBloc(storage: InMemoryStorage())
    let events: [SettingsEvent] = [
      .set(.searchBackend, "itunes"), .set(.searchCountry, "fr"), .set(.searchLimit, 7),
      .set(.searchThrottleMs, 0), .set(.counterStep, 3), .set(.counterMinimum, -1),
      .set(.counterMaximum, 9),
    ]
    await withTaskGroup(of: Void.self) { group in
      for event in events { group.addTask { await bloc.send(event) } }
    }
    #expect(bloc.state == (try SettingsState.defaults.applying(events)))
    await bloc.close()
  }

  @Test func settingsSurviveARestartInARealDirectory() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let first = SettingsBloc(storage: try FileStorage(directory: directory))
    await first.send(.set(.searchCountry, "DE"))
    await first.send(.set(.counterMinimum, -5))
    await first.close()
    #expect(
      try storedText(directory, "settings")
        == #"{"schemaVersion":1,"seq":2,"state":{"counterMaximum":null,"counterMinimum":-5,"#
        + #""counterStep":1,"searchBackend":"packages","searchCountry":"de","searchLimit":20,"#
        + #""searchThrottleMs":200}}"#)

    let second = SettingsBloc(storage: try FileStorage(directory: directory))
    #expect(second.restoreIssue == nil)
    #expect(second.state.searchCountry == "de")
    #expect(second.state.counterMinimum == -5)
    // The outcome arrives once stored: a third instance sees the reset without a close.
    #expect(await second.send(.resetAll).isHandled)
    #expect(SettingsBloc(storage: try FileStorage(directory: directory)).state == .defaults)
    await second.close()
  }

  @Test func anInvalidStoredValueIsKeptAsideAndTheDefaultsApply() async throws {
    let storage = InMemoryStorage([
      "settings": Data(#"{"schemaVersion":1,"state":{"searchLimit":500}}"#.utf8)
    ])
    let bloc = SettingsBloc(storage: storage)
    #expect(bloc.state == .defaults)
    let issue = try #require(bloc.restoreIssue)
    #expect("\(issue)".contains("searchLimit must be an integer from 1 to 200; got 500"))
    #expect(storage.contents["settings.unreadable-1"] != nil, "the user's file is kept aside")
    await bloc.close()
  }

  @Test func aStoredValueMissingNewerKeysTakesTheirDefaults() async throws {
    let storage = InMemoryStorage([
      "settings": Data(#"{"schemaVersion":1,"state":{"searchBackend":"itunes"}}"#.utf8)
    ])
    let bloc = SettingsBloc(storage: storage)
    #expect(bloc.restoreIssue == nil)
    #expect(bloc.state == .with(.set(.searchBackend, "itunes")))
    await bloc.close()
  }
}
