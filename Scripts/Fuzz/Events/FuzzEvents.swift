import AppSearch
import BlocCore
import Counter
import Dispatch
import FuzzSupport
import Settings
import StateServer
import Wire

/// Fuzzes each feature's event decoding the way the daemon reaches it: a `send` request line
/// is parsed, its `event` handed to the named feature's `Feature.send`, and the event, when
/// accepted, runs in the real bloc to its outcome. Checked: a refused event is refused with
/// an `unknown_event`, `missing_field` or `invalid_field` error and a message, and changes no
/// state; an accepted event reaches an outcome; nothing crashes or hangs.
///
/// Input: a request line such as `{"op":"send","feature":"counter","event":{"type":"set",
/// "value":3}}` (see Scripts/Fuzz/Seeds/events). When `feature` names no feature, one is
/// picked from the input's length, so mutated names still reach a decoder.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEvents(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  checkEvent(UnsafeRawBufferPointer(start: data, count: size))
  return 0
}

/// The daemon's features as `stated` registers them (Apps/stated/Features.swift), in memory,
/// with a search service that answers from the term.
let registry: FeatureRegistry = {
  let storage = InMemoryStorage()
  let settings = SettingsBloc(storage: storage)
  let registry = FeatureRegistry()
  registry.register(
    CounterFeature.self, CounterBloc(rules: CounterRulesFromSettings(settings), storage: storage))
  registry.register(SettingsFeature.self, settings)
  registry.register(
    AppSearchFeature.self,
    AppSearchBloc(
      configuration: SearchConfigurationFromSettings(settings), storage: storage,
      services: .using(EchoSearchService())))
  return registry
}()

func checkEvent(_ input: UnsafeRawBufferPointer) {
  guard let request = try? Request(parsing: input) else { return }
  let features = registry.features
  let feature =
    (try? request.string("feature")).flatMap(registry.feature(named:))
    ?? features[input.count % features.count]
  guard let payload = try? request.event() else { return }

  let before = try? feature.snapshot()
  let receipt: EventReceipt
  do {
    receipt = try feature.send(payload)
  } catch {
    let allowed: Set<ErrorCode> = [.unknownEvent, .missingField, .invalidField]
    fuzzCheck(allowed.contains(error.code), "refused with \(error.code): \(error.message)")
    fuzzCheck(!error.message.isEmpty, "refusal without a message")
    let after = try? feature.snapshot()
    fuzzCheck(before == after, "a refused event changed \(feature.name)'s state")
    return
  }
  let done = DispatchSemaphore(value: 0)
  receipt.onResolve { _ in done.signal() }
  fuzzCheck(
    done.wait(timeout: .now() + .seconds(10)) == .success,
    "event \(payload.json) of \(feature.name) reached no outcome in 10 s")
}

// The daemon's adapters from Settings (they live in the `stated` executable, which a fuzz
// target cannot import), so that settings events change what the other features do.

struct CounterRulesFromSettings: CounterRulesSource {
  let settings: SettingsBloc
  init(_ settings: SettingsBloc) { self.settings = settings }

  var rules: CounterRules {
    let now = settings.state
    return CounterRules(
      step: now.counterStep, minimum: now.counterMinimum, maximum: now.counterMaximum)
  }
}

struct SearchConfigurationFromSettings: SearchConfigurationSource {
  let settings: SettingsBloc
  init(_ settings: SettingsBloc) { self.settings = settings }

  var configuration: SearchConfiguration {
    let now = settings.state
    return SearchConfiguration(
      source: now.searchBackend == .itunes ? .itunes : .packages, country: now.searchCountry,
      limit: now.searchLimit, throttle: .milliseconds(now.searchThrottleMs))
  }
}

/// Answers every search at once with two apps made from the term.
struct EchoSearchService: AppSearchService {
  func search(_ query: SearchQuery) async throws -> [App] {
    guard query.limit > 0, !query.term.allSatisfy(\.isWhitespace) else { return [] }
    return [App(id: 1, name: query.term), App(id: 2, name: query.term + " 2", rating: 4.5)]
  }
}

@main
enum FuzzEventsReplay {
  static func main() { FuzzReplay.main(name: "fuzz-events") { checkEvent($0) } }
}
