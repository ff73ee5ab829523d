import AppSearch
import BlocCore
import Counter
import Foundation
import Settings
import StateServer

/// Creates the feature blocs (each restores its stored state; problems are logged by the
/// `LoggingObserver`) and registers them: the one place that lists the features. Adding a
/// feature is one `registry.register` line here (and its target in Package.swift).
/// `stated` serves what this registers; the fuzz target of event decoding uses it too, with a
/// search service that answers from memory.
///
/// Settings is a feature like the others; the counter's rules and the search's configuration
/// are read from it by the adapters below, at the moment each is needed: its stored state,
/// never a change still being stored (one the disk refuses must not be built upon).
///
/// ```swift
/// let registry = FeatureRegistry()
/// registerFeatures(in: registry, storage: InMemoryStorage())
/// registry.names  // ["counter", "settings", "search"]
/// ```
public func registerFeatures(
  in registry: FeatureRegistry, storage: any BlocStorage,
  searchServices: AppSearchServices = liveSearchServices(), logger: Logger? = nil
) {
  let settings = SettingsBloc(storage: storage)
  registry.register(
    CounterFeature.self, CounterBloc(rules: CounterRulesFromSettings(settings), storage: storage))
  registry.register(SettingsFeature.self, settings)
  registry.register(
    AppSearchFeature.self,
    AppSearchBloc(
      configuration: SearchConfigurationFromSettings(settings), storage: storage,
      services: searchServices))
  // new-feature: registrations go above this line.

  logger?.info(
    "serving \(registry.names.joined(separator: ", ")); settings \(settings.state == .defaults ? "defaults" : "customized")"
  )
}

/// The live search services; `STATED_ITUNES_URL` points the App Store backend at another
/// endpoint of the same API (a mirror, or a test's server).
public func liveSearchServices() -> AppSearchServices {
  guard let text = ProcessInfo.processInfo.environment["STATED_ITUNES_URL"],
    let url = URL(string: text)
  else { return .live }
  return AppSearchServices(
    packages: PackageCatalogService.system, itunes: ITunesSearchService(baseURL: url))
}

/// The counter's step and bounds, read from the stored settings at each event: a settings
/// change counts once it is stored, so a count is never built on one the storage refuses.
/// Kept between events while the settings do not change (``StoredRulesCache``): the usual
/// event reads them with no lock.
public struct CounterRulesFromSettings: CounterRulesSource {
  let settings: SettingsBloc
  private let kept = StoredRulesCache()
  public init(_ settings: SettingsBloc) { self.settings = settings }

  public var rules: CounterRules {
    if let rules = kept.rules(at: settings.newestSequence) { return rules }
    let (stored, currentAt) = settings.storedSnapshotAndIsCurrent
    let now = stored.state
    let rules = CounterRules(
      step: now.counterStep, minimum: now.counterMinimum, maximum: now.counterMaximum)
    if let currentAt { kept.keep(rules, at: currentAt) }
    return rules
  }

  /// Whether the rules of the settings' newest state are kept (the next event reads them with
  /// no lock); for tests.
  package var keepsRules: Bool { kept.rules(at: settings.newestSequence) != nil }
}

/// The search's configuration, read from the stored settings as each search starts (so no
/// search runs, and no result shows, under a setting the storage refused). Offline by
/// default: `searchBackend` is `packages` (this machine's package catalog) until a client sets
/// it to `itunes`.
public struct SearchConfigurationFromSettings: SearchConfigurationSource {
  let settings: SettingsBloc
  public init(_ settings: SettingsBloc) { self.settings = settings }

  public var configuration: SearchConfiguration {
    let now = settings.storedSnapshot.state
    return SearchConfiguration(
      source: now.searchBackend == .itunes ? .itunes : .packages, country: now.searchCountry,
      limit: now.searchLimit, throttle: .milliseconds(now.searchThrottleMs))
  }
}
