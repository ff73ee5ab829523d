import AppSearch
import BlocCore
import BlocTest
import Settings
import StatedFeatures
import Testing

/// Searching: throttling in virtual time, stale answers, blank terms, failures, settings.
@Suite struct AppSearchSearchTests {
  typealias State = AppSearchState

  static func loading(_ term: String, after previous: String? = nil) -> State {
    State(term: term, results: previous.map(FakeSearchService.apps(for:)) ?? [], activity: .loading)
  }

  static func found(_ term: String) -> State {
    State(term: term, results: FakeSearchService.apps(for: term))
  }

  @Test func throttleRunsTheFirstAtOnceThenOnlyTheLatest() async {
    let service = FakeSearchService()
    await blocTest(
      build: { clock in
        AppSearchBloc(
          storage: InMemoryStorage(), services: .using(service),
          clock: clock)
      },
      act: { context in
        context.bloc.add(.search("m"))
        let skipped = context.bloc.add(.search("ma"))
        context.bloc.add(.search("map"))
        await context.advance(by: .milliseconds(199))
        #expect(context.bloc.state.term == "m", "still within the 200 ms window")
        await context.advance(by: .milliseconds(1))
        guard case .dropped = await skipped.outcome else {
          Issue.record("a term replaced within the window is dropped")
          return
        }
      },
      expect: [
        Self.loading("m"), Self.found("m"), Self.loading("map", after: "m"), Self.found("map"),
      ],
      verify: { _ in #expect(service.queries.map(\.term) == ["m", "map"]) })
  }

  @Test func theThrottleIntervalComesFromSettingsEachTime() async {
    let settings = SettingsBloc(storage: InMemoryStorage())
    await settings.send(.set(.searchThrottleMs, 1000))
    await blocTest(
      build: { clock in
        AppSearchBloc(
          configuration: SearchConfigurationFromSettings(settings), storage: InMemoryStorage(),
          services: .using(FakeSearchService()),
          clock: clock)
      },
      act: { context in
        context.bloc.add(.search("a"))
        context.bloc.add(.search("b"))
        await context.advance(by: .milliseconds(999))
        #expect(context.bloc.state.term == "a")
        await context.advance(by: .milliseconds(1))
        #expect(context.bloc.state.term == "b")
      },
      expect: [Self.loading("a"), Self.found("a"), Self.loading("b", after: "a"), Self.found("b")])
    await settings.close()
  }

  @Test func aNewerSearchCancelsASlowOneAndItsAnswerNeverAppears() async {
    let service = FakeSearchService(gated: ["slow"])
    await blocTest(
      build: { clock in
        AppSearchBloc(
          storage: InMemoryStorage(), services: .using(service),
          clock: clock)
      },
      act: { context in
        let slow = context.bloc.add(.search("slow"))
        await eventually { service.gate.waiting == 1 }
        let fast = context.bloc.add(.search("fast"))
        // Not context.advance: it would wait for the held search to finish.
        context.clock.advance(by: .milliseconds(200))
        #expect(await fast.outcome.isHandled)
        guard case .cancelled = await slow.outcome else {
          Issue.record("the slow search should be cancelled")
          return
        }
        #expect(service.cancelled == ["slow"], "the service saw the cancellation")
      },
      expect: [Self.loading("slow"), Self.loading("fast"), Self.found("fast")])
  }

  /// A clear cancels the search in flight (issue 12.1): its answer is discarded.
  @Test func aClearCancelsTheSearchInFlightAndItsAnswerIsDiscarded() async {
    let service = FakeSearchService(gated: ["maps"])
    await blocTest(
      build: { clock in
        AppSearchBloc(
          storage: InMemoryStorage(), services: .using(service),
          clock: clock)
      },
      act: { context in
        let search = context.bloc.add(.search("maps"))
        await eventually { service.gate.waiting == 1 }
        #expect(await context.bloc.send(.clear).isHandled)
        service.gate.open()
        guard case .cancelled = await search.outcome else {
          Issue.record("the search a clear overtook is cancelled")
          return
        }
        #expect(context.bloc.state == State())
      },
      expect: [Self.loading("maps"), State()])
  }

  @Test func aBlankTermChangesNothingAndCancelsNothing() async {
    let service = FakeSearchService(gated: ["maps"])
    await blocTest(
      build: { clock in
        AppSearchBloc(
          storage: InMemoryStorage(), services: .using(service),
          clock: clock)
      },
      act: { context in
        #expect(await context.bloc.send(.search("")).isHandled)
        let search = context.bloc.add(.search("maps"))
        await eventually { service.gate.waiting == 1 }
        let blank = context.bloc.add(.search(" \t\n"))
        // Past the throttle window: were the blank term throttled, it would run now.
        context.clock.advance(by: .milliseconds(200))
        #expect(await blank.outcome.isHandled)
        #expect(service.gate.waiting == 1, "the search in flight goes on")
        service.gate.open()
        #expect(await search.outcome.isHandled)
      },
      expect: [
        Self.loading("maps"),
        State(term: "maps", results: [App(id: 666, name: "stale answer for maps")]),
      ],
      verify: { _ in #expect(service.queries.map(\.term) == ["maps"]) })
  }

  @Test func theTermIsTrimmed() async {
    await blocTest(
      build: { clock in
        AppSearchBloc(
          storage: InMemoryStorage(),
          services: .using(FakeSearchService()), clock: clock)
      },
      act: { context in await context.bloc.send(.search("  maps\n")) },
      expect: [Self.loading("maps"), Self.found("maps")])
  }

  /// Issue 9.8: the event ends failed, and the state still shows why.
  @Test func aFailedSearchEndsFailedShowsItsMessageAndTheBlocKeepsWorking() async {
    let service = FakeSearchService(failures: ["down": .httpStatus(503)])
    await blocTest(
      build: { clock in
        AppSearchBloc(
          storage: InMemoryStorage(), services: .using(service),
          clock: clock)
      },
      act: { context in
        await context.bloc.send(.search("up"))
        let down = context.bloc.add(.search("down"))
        await context.advance(by: .milliseconds(200))
        #expect(
          failure(await down.outcome) == "The search service answered with HTTP status 503.")
        #expect(
          context.bloc.state.activity
            == .failed("The search service answered with HTTP status 503."))
        context.bloc.add(.search("up again"))
        await context.advance(by: .milliseconds(200))
      },
      expect: [
        Self.loading("up"), Self.found("up"), Self.loading("down", after: "up"),
        State(term: "down", activity: .failed("The search service answered with HTTP status 503.")),
        State(term: "up again", activity: .loading), Self.found("up again"),
      ],
      errors: [.equals(SearchFailure.httpStatus(503))])
  }

  @Test func backendCountryAndLimitComeFromSettingsAtEachSearch() async {
    let settings = SettingsBloc(storage: InMemoryStorage())
    let packages = FakeSearchService()
    let itunes = FakeSearchService()
    await settings.send(.set(.searchBackend, "itunes"))
    await settings.send(.set(.searchCountry, "DE"))
    await settings.send(.set(.searchLimit, 5))
    await blocTest(
      build: { clock in
        AppSearchBloc(
          configuration: SearchConfigurationFromSettings(settings), storage: InMemoryStorage(),
          services: AppSearchServices(packages: packages, itunes: itunes), clock: clock)
      },
      act: { context in
        await context.bloc.send(.search("maps"))
        await settings.send(.set(.searchBackend, "packages"))
        await settings.send(.set(.searchLimit, 7))
        await context.advance(by: .milliseconds(200))
        await context.bloc.send(.search("vim"))
      },
      expect: [
        Self.loading("maps"), Self.found("maps"), Self.loading("vim", after: "maps"),
        Self.found("vim"),
      ],
      verify: { _ in
        #expect(itunes.queries == [SearchQuery(term: "maps", country: "de", limit: 5)])
        #expect(packages.queries == [SearchQuery(term: "vim", country: "de", limit: 7)])
      })
    await settings.close()
  }

  @Test func thePackagesBackendSearchesACatalog() async {
    let catalog = PackageCatalogService(entries: [
      App(id: 1, name: "zsh", summary: "shell with lots of features"),
      App(id: 2, name: "bash-completion", summary: "programmable completion for the bash shell"),
      App(id: 3, name: "bash", summary: "GNU Bourne Again SHell"),
      App(id: 4, name: "dash", summary: "POSIX-compliant shell"),
    ])
    let unused = FakeSearchService()
    await blocTest(
      build: { clock in
        AppSearchBloc(
          configuration: FixedSearchConfiguration(.init(limit: 2)), storage: InMemoryStorage(),
          services: AppSearchServices(packages: catalog, itunes: unused), clock: clock)
      },
      act: { context in await context.bloc.send(.search("BASH")) },
      expect: [
        State(term: "BASH", activity: .loading),
        State(
          term: "BASH",
          results: [
            App(id: 3, name: "bash", summary: "GNU Bourne Again SHell"),
            App(
              id: 2, name: "bash-completion", summary: "programmable completion for the bash shell"),
          ]),
      ],
      verify: { _ in #expect(unused.queries.isEmpty) })
  }
}
