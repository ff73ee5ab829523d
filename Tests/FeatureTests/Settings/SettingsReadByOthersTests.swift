import BlocCore
import Counter
import Settings
import StatedFeatures
import Testing

/// Issue 17: the counter's rules and the search's configuration are the stored settings. A
/// settings change still being stored is not used yet, and one the storage refuses is never
/// built upon: no count moves by a refused step, no search runs under a refused limit.
@Suite struct SettingsReadByOthersTests {
  @Test func aSettingIsUsedOnceStoredAndARefusedOneNever() async {
    let storage = HeldStorage()
    let settings = SettingsBloc(storage: storage)
    let counter = CounterBloc(
      rules: CounterRulesFromSettings(settings), storage: InMemoryStorage())
    let search = SearchConfigurationFromSettings(settings)

    let refused = settings.add(.set(.counterStep, 5))
    let refusedLimit = settings.add(.set(.searchLimit, 3))
    #expect(storage.waiting == 1, "the first write is held, the second waits behind it")
    #expect(settings.state.counterStep == 5, "applied, not stored")
    #expect(await counter.send(.increment).isHandled)
    #expect(counter.state.count == 1, "the stored step, not the one being stored")
    #expect(search.configuration.limit == 20, "the stored limit")

    storage.release(refusing: true)
    #expect(
      failure(await refused.outcome) == "cannot save state 'settings': No space left on device")
    #expect(failure(await refusedLimit.outcome) != nil, "built on the refused change: refused too")
    #expect(settings.state == .defaults)
    #expect(await counter.send(.increment).isHandled)
    #expect(counter.state.count == 2, "never built on the refused step")
    #expect(search.configuration.limit == 20)

    let stored = settings.add(.set(.counterStep, 5))
    storage.release(refusing: false)
    #expect(await stored.outcome.isHandled)
    #expect(await counter.send(.increment).isHandled)
    #expect(counter.state.count == 7, "a stored step applies to the next event")
    await counter.close()
    await settings.close()
  }

  /// The rules are kept between counter events while the settings do not change: every
  /// stored change must still apply to the very next event, and one being stored or refused
  /// never.
  @Test func keptRulesGiveWayToTheNextStoredSetting() async {
    let storage = HeldStorage()
    let settings = SettingsBloc(storage: storage)
    let counter = CounterBloc(
      rules: CounterRulesFromSettings(settings), storage: InMemoryStorage())
    for _ in 0..<2 { #expect(await counter.send(.increment).isHandled) }
    #expect(counter.state.count == 2, "step 1, read once and kept")

    let step = settings.add(.set(.counterStep, 3))
    #expect(await counter.send(.increment).isHandled)
    #expect(counter.state.count == 3, "being stored: not used yet")
    storage.release(refusing: false)
    #expect(await step.outcome.isHandled)
    #expect(await counter.send(.increment).isHandled)
    #expect(counter.state.count == 6, "stored: used by the very next event")
    #expect(await counter.send(.increment).isHandled)
    #expect(counter.state.count == 9, "and kept")

    let maximum = settings.add(.set(.counterMaximum, 10))
    storage.release(refusing: false)
    #expect(await maximum.outcome.isHandled)
    #expect(!(await counter.send(.increment).isHandled), "9 + 3 is above the new maximum")
    #expect(counter.state.count == 9)

    let refused = settings.add(.set(.counterStep, 1))
    storage.release(refusing: true)
    #expect(!(await refused.outcome.isHandled))
    #expect(!(await counter.send(.increment).isHandled), "the refused step is never used")
    let unbounded = settings.add(.set(.counterMaximum, .null))
    storage.release(refusing: false)
    #expect(await unbounded.outcome.isHandled)
    #expect(await counter.send(.increment).isHandled)
    #expect(counter.state.count == 12, "step 3 again, no maximum")
    await counter.close()
    await settings.close()
  }

  /// After a refused settings change the stored settings are the current ones again (the
  /// refusal rolled them back): the counter keeps their rules again at its next event, and
  /// does not read them under the settings' lock at every event until the next stored change.
  /// Also when the refused change had been undone already, so that the rollback changes nothing.
  @Test func rulesAreKeptAgainAfterARefusedSetting() async {
    let storage = HeldStorage()
    let settings = SettingsBloc(storage: storage)
    let rules = CounterRulesFromSettings(settings)
    let counter = CounterBloc(rules: rules, storage: InMemoryStorage())
    #expect(await counter.send(.increment).isHandled)
    #expect(rules.keepsRules)

    let refused = settings.add(.set(.counterStep, 5))
    #expect(!rules.keepsRules, "a change on its way to storage")
    #expect(await counter.send(.increment).isHandled)
    #expect(!rules.keepsRules, "not kept while it is being stored")
    storage.release(refusing: true)
    #expect(!(await refused.outcome.isHandled))
    #expect(await counter.send(.increment).isHandled)
    #expect(counter.state.count == 3, "the stored step")
    #expect(rules.keepsRules, "the stored settings are current again")

    let refusedAgain = settings.add(.set(.counterStep, 5))
    let back = settings.add(.set(.counterStep, 1))
    storage.release(refusing: true)
    #expect(!(await refusedAgain.outcome.isHandled))
    #expect(!(await back.outcome.isHandled), "built on the refused change: refused too")
    #expect(settings.state == .defaults)
    #expect(await counter.send(.increment).isHandled)
    #expect(counter.state.count == 4)
    #expect(rules.keepsRules, "current again, with no change back")

    let stored = settings.add(.set(.counterStep, 2))
    storage.release(refusing: false)
    #expect(await stored.outcome.isHandled)
    #expect(!rules.keepsRules, "a newer stored setting")
    #expect(await counter.send(.increment).isHandled)
    #expect(counter.state.count == 6, "the stored step applies to the very next event")
    #expect(rules.keepsRules)
    await counter.close()
    await settings.close()
  }
}
