import AppSearch
import BlocCore
import Dispatch
import FuzzSupport
import StateServer
import StatedFeatures
import Wire

/// Fuzzes each feature's event decoding the way the daemon reaches it: a `send` request line
/// is parsed, its `event` decoded by the named feature straight from the bytes (`Feature.add`), and the event, when
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

/// The daemon's features, registered as `stated` registers them (`registerFeatures`), in memory,
/// with a search service that answers from the term.
let registry: FeatureRegistry = {
  let registry = FeatureRegistry()
  registerFeatures(
    in: registry, storage: InMemoryStorage(), searchServices: .using(EchoSearchService()))
  return registry
}()

func checkEvent(_ input: UnsafeRawBufferPointer) {
  guard let request = try? RequestHead(parsing: Array(input)) else { return }
  let features = registry.features
  let feature =
    request["feature"]?.stringValue.flatMap(registry.feature(named:))
    ?? features[input.count % features.count]

  let before = try? feature.storedSnapshot()
  let added = request.withMember("event") { event in
    event.map { event in Result { () throws(WireError) in try feature.add(event) } }
  }
  guard let added else { return }
  let receipt: EventReceipt
  do {
    receipt = try added.get()
  } catch {
    let allowed: Set<ErrorCode> = [.unknownEvent, .missingField, .invalidField]
    fuzzCheck(allowed.contains(error.code), "refused with \(error.code): \(error.message)")
    fuzzCheck(!error.message.isEmpty, "refusal without a message")
    let after = try? feature.storedSnapshot()
    fuzzCheck(before == after, "a refused event changed \(feature.name)'s state")
    return
  }
  let done = DispatchSemaphore(value: 0)
  receipt.onResolve { _ in done.signal() }
  fuzzCheck(
    done.wait(timeout: .now() + .seconds(10)) == .success,
    "event \(request["event"] ?? .null) of \(feature.name) reached no outcome in 10 s")
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
