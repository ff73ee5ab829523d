// FEATURES.md's usage examples, compiled. FeaturesDocumentTests checks that every Swift block
// of FEATURES.md is compiled code: from here, or an excerpt of the feature modules themselves.
import BlocCore
import Settings

func settingsTour(storage: any BlocStorage, myDefaults: SettingsState) async {
  let settings = SettingsBloc(storage: storage)  // also: unreadable: .stopPersisting
  await settings.send(.set(.searchLimit, 50))  // literals: 50, "itunes", nil
  _ = settings.state.searchLimit  // 50
  let custom = SettingsBloc(storage: storage, defaults: FixedSettingsDefaults(myDefaults))

  await custom.close()
  await settings.close()
}
