import AppSearch
import BlocCore
import BlocTest
import Foundation
import Settings
import StatedFeatures
import Testing

/// Marks: toggling, surviving searches, clears and restarts, refusals, the stored form.
@Suite struct AppSearchMarksTests {
  typealias State = AppSearchState

  /// The one app `FakeSearchService` finds for "maps" (id 4), and its mark.
  static let maps = FakeSearchService.apps(for: "maps")
  static let mapsMark = Mark(id: 4, name: "maps", backend: .packages)

  @Test func marksSurviveNewSearchesAndClear() async {
    await blocTest(
      build: { clock in
        AppSearchBloc(
          storage: InMemoryStorage(), services: .using(FakeSearchService()), clock: clock)
      },
      act: { context in
        await context.bloc.send(.search("maps"))
        await context.bloc.send(.toggleMark(4))
        await context.advance(by: .milliseconds(200))
        await context.bloc.send(.search("bash"))
        await context.bloc.send(.clear)
        await context.bloc.send(.toggleMark(4))
      },
      expect: [
        State(term: "maps", activity: .loading),
        State(term: "maps", results: Self.maps),
        State(term: "maps", results: Self.maps, marks: [Self.mapsMark]),
        State(term: "bash", results: Self.maps, marks: [Self.mapsMark], activity: .loading),
        State(
          term: "bash", results: FakeSearchService.apps(for: "bash"), marks: [Self.mapsMark]),
        State(marks: [Self.mapsMark]),
        State(),
      ])
  }

  /// Issue 10.3: an id that is neither a result nor marked is refused, and nothing changes.
  @Test func anUnknownIdIsRefusedClearly() async {
    let bloc = AppSearchBloc(storage: InMemoryStorage(), services: .using(FakeSearchService()))
    #expect(
      failure(await bloc.send(.toggleMark(9)))
        == "no app with id 9 in the results or the marks; search for it first, then mark an id "
        + "from the results")
    #expect(bloc.state == State())
    await bloc.close()
  }

  /// Issue 10.3: one event clears every mark, and the cleared marks are stored.
  @Test func clearMarksRemovesEveryMark() async throws {
    let storage = InMemoryStorage()
    let bloc = AppSearchBloc(storage: storage, services: .using(FakeSearchService()))
    await bloc.send(.search("maps"))
    await bloc.send(.toggleMark(4))
    #expect(await bloc.send(.clearMarks).isHandled)
    #expect(bloc.state.marks.isEmpty)
    #expect(
      String(decoding: try #require(storage.contents["search-marks"]), as: UTF8.self)
        == #"{"schemaVersion":2,"seq":2,"state":{"marks":[]}}"#)
    await bloc.close()
  }

  /// Issue 12.1: events are handled in the order they arrive. A mark sent while a search runs
  /// waits for it, and so marks from the new results.
  @Test func aMarkSentDuringASearchWaitsForItsResults() async {
    let service = FakeSearchService(gated: ["bash"])
    let stale = App(id: 666, name: "stale answer for bash")
    await blocTest(
      build: { clock in
        AppSearchBloc(storage: InMemoryStorage(), services: .using(service), clock: clock)
      },
      act: { context in
        await context.bloc.send(.search("maps"))
        await context.advance(by: .milliseconds(200))
        let search = context.bloc.add(.search("bash"))
        await eventually { service.gate.waiting == 1 }
        let mark = context.bloc.add(.toggleMark(666))
        #expect(context.bloc.state.marks.isEmpty, "the mark waits for the search")
        service.gate.open()
        #expect(await search.outcome.isHandled)
        #expect(await mark.outcome.isHandled)
      },
      expect: [
        State(term: "maps", activity: .loading),
        State(term: "maps", results: Self.maps),
        State(term: "bash", results: Self.maps, activity: .loading),
        State(term: "bash", results: [stale]),
        State(
          term: "bash", results: [stale],
          marks: [Mark(id: 666, name: "stale answer for bash", backend: .packages)]),
      ])
  }

  /// Issue 12.1: a clear sent right after a search is never overtaken by it: the search is
  /// cancelled and its answer never shows.
  @Test func aClearAfterASearchWins() async {
    for _ in 0..<50 {
      let bloc = AppSearchBloc(
        configuration: FixedSearchConfiguration(.init(throttle: .zero)), storage: InMemoryStorage(),
        services: .using(FakeSearchService()))
      let search = bloc.add(.search("lib"))
      let clear = bloc.add(.clear)
      #expect(await clear.outcome.isHandled)
      _ = await search.outcome
      await bloc.settled()
      #expect(bloc.state == State(), "the search's answer never shows after the clear")
      await bloc.close()
    }
  }

  /// Issue 10.3: a mark keeps its name and backend, so it can be shown after a restart.
  @Test func marksSurviveARestartWithNameAndBackend() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    func make() throws -> AppSearchBloc {
      AppSearchBloc(
        storage: try FileStorage(directory: directory), services: .using(FakeSearchService()))
    }
    let first = try make()
    await first.send(.search("maps"))
    await first.send(.toggleMark(4))
    // toggleMark's outcome arrives once stored: the file is there before any close.
    #expect(
      try storedText(directory, "search-marks")
        == #"{"schemaVersion":2,"seq":1,"state":{"marks":[{"backend":"packages","id":4,"name":"maps"}]}}"#
    )
    await first.close()

    let second = try make()
    #expect(second.state == State(marks: [Self.mapsMark]), "only the marks come back")
    await second.send(.toggleMark(4))
    await second.close()
    #expect(try make().state.marks == [])
  }

  /// Issue 10.3: marks stored by version 1 (ids only, 63-bit package ids) migrate.
  @Test func marksStoredAsIdsOnlyMigrate() async throws {
    let bashV1: Int64 = 0x6c83_f05d_4b36_7ad1  // a package id of version 1, above 2^53
    let storage = InMemoryStorage([
      "search-marks": Data(#"{"schemaVersion":1,"state":{"marks":[7,\#(bashV1)]}}"#.utf8)
    ])
    let bloc = AppSearchBloc(storage: storage, services: .using(FakeSearchService()))
    #expect(storage.contents.keys.sorted() == ["search-marks"], "nothing was kept aside")
    #expect(
      bloc.state.marks == [
        Mark(id: 7, name: nil, backend: .itunes),
        Mark(id: bashV1 & App.maximumID, name: nil, backend: .packages),
      ])
    #expect(bloc.state.marks.allSatisfy { $0.id <= App.maximumID })
    // The migration is a change of its own, stored at start; the next one follows it.
    await bloc.send(.toggleMark(7))
    #expect(
      String(decoding: try #require(storage.contents["search-marks"]), as: UTF8.self)
        == #"{"schemaVersion":2,"seq":2,"state":{"marks":[{"backend":"packages","id":\#(bashV1 & App.maximumID)}]}}"#
    )
    await bloc.close()
  }

  @Test func unreadableMarksAreKeptAsideAndReported() async throws {
    let storage = InMemoryStorage(["search-marks": Data("[1,2".utf8)])
    let bloc = AppSearchBloc(storage: storage, services: .using(FakeSearchService()))
    #expect(bloc.state == State())
    #expect(storage.contents["search-marks.unreadable-1"] == Data("[1,2".utf8))
    await bloc.send(.search("abc"))
    await bloc.send(.toggleMark(3))
    await bloc.close()
    #expect(String(decoding: storage.contents["search-marks"]!, as: UTF8.self).contains(#""id":3"#))
  }

  @Test func toggleMarkFailsWhenTheMarksCannotBeStored() async throws {
    let bloc = AppSearchBloc(storage: ReadOnlyStorage(), services: .using(FakeSearchService()))
    await bloc.send(.search("abc"))
    let outcome = await bloc.send(.toggleMark(3))
    #expect(failure(outcome)?.hasPrefix("cannot save state 'search-marks': read-only") == true)
    await bloc.close()
  }

  @Test func theThreeFeaturesShareOneStateDirectory() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let storage = try FileStorage(directory: directory)
    let settings = SettingsBloc(storage: storage)
    let search = AppSearchBloc(
      configuration: SearchConfigurationFromSettings(settings), storage: storage,
      services: .using(FakeSearchService()))
    await settings.send(.set(.searchLimit, 3))
    await search.send(.search("a"))
    await search.send(.toggleMark(1))
    await search.close()
    await settings.close()
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    #expect(files == ["search-marks.json", "settings.json"])
  }
}
