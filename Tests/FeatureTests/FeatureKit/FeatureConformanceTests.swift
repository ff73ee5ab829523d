import AppSearch
import BlocCore
import Counter
import FeatureKit
import StateServer
import StatedFeatures
import Testing

/// The check every feature gets for free: each feature the daemon registers (a generated one
/// included, with no test written for it) declares every case of its event enum, names only
/// its cases, and handles and round-trips each declared event's example.
@Suite struct FeatureConformanceTests {
  static func daemonFeatures() -> FeatureRegistry {
    let registry = FeatureRegistry()
    let search = FakeSearchService()
    registerFeatures(
      in: registry, storage: InMemoryStorage(),
      searchServices: AppSearchServices(packages: search, itunes: search))
    return registry
  }

  @Test func everyRegisteredFeatureConforms() async {
    let registry = Self.daemonFeatures()
    #expect(registry.names.count >= 3)
    for feature in registry.features {
      #expect(feature.conformanceProblems() == [], "\(feature.name)")
    }
    await registry.closeAll()
  }

  @Test func enumCasesAreReadFromTheTypesMetadata() {
    // Cases with a payload first, as the compiler lays them out.
    #expect(EnumCases.names(of: Probe.self) == ["second", "third", "first"])
    #expect(EnumCases.names(of: CounterEvent.self) == ["set", "increment", "decrement", "reset"])
    #expect(EnumCases.names(of: Int.self) == nil)
    #expect(EnumCases.names(of: String?.self) == nil)
  }

  @Test func aCaseWithoutDeclarationAndATypeWithoutCaseAreNamed() {
    #expect(
      Probe.declaration.mismatches == [
        "case 'second' of Probe has no declared event: add .event(\"second\", …) to "
          + "Probe.declaration",
        "case 'third' of Probe has no declared event: add .event(\"third\", …) to "
          + "Probe.declaration",
        "the declared event 'fourth' names no case of Probe (its cases: second, third, first); "
          + "a declared type is its case's name",
      ])
  }

  @Test func aBlocWithoutAHandlerForAnEventIsFound() async {
    let partial = Bloc<Probe, Int>(initialState: 0) { bloc in
      bloc.on(.first) { _, emit in emit(1) }
    }
    #expect(partial.handles(.first))
    #expect(!partial.handles(.second(2)))
    let reducer = Bloc<Probe, Int>(initialState: 0) { count, _ in count + 1 }
    #expect(reducer.handles(.third("x", true)))
    await partial.close()
    await reducer.close()
  }
}

/// An event enum whose declaration forgets two cases and declares one that does not exist.
enum Probe: DeclaredEvent, Hashable {
  case first
  case second(Int)
  case third(String, Bool)

  static let declaration = EventDeclaration<Probe>(
    feature: "probe", .event("first", "One.") { .first }, .event("fourth", "None.") { .first })
}
