import AppSearch
import BlocCore
import Counter
import Settings
import StateServer

/// Creates the feature blocs (each restores its stored state; problems are logged by the
/// `LoggingObserver`) and registers them. Adding a feature is one `registry.register` line.
func registerFeatures(in registry: FeatureRegistry, storage: any BlocStorage, logger: Logger) {
  let settings = SettingsBloc(storage: storage)
  let counter = CounterBloc(settings: settings, storage: storage)
  // Offline by default: `searchBackend` is `packages` (this machine's package catalog) until a
  // client sets it to `itunes`.
  let search = AppSearchBloc(settings: settings, storage: storage, services: .live)

  registry.register(CounterFeature.name, counter, summary: CounterFeature.summary)
  registry.register(SettingsFeature.name, settings, summary: SettingsFeature.summary)
  registry.register(AppSearchFeature.name, search, summary: AppSearchFeature.summary)

  logger.info(
    "restored counter \(counter.state.count), settings \(settings.state == .defaults ? "defaults" : "customized"), \(search.state.marks.count) marks"
  )
}
