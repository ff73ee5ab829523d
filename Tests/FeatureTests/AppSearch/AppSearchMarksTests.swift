import AppSearch
import BlocCore
import BlocTest
import Foundation
import Settings
import Testing

/// Marks: toggling, surviving searches, clears and restarts.
@Suite struct AppSearchMarksTests {
  typealias State = AppSearchState

  @Test func marksSurviveNewSearchesAndClear() async {
    await blocTest(
      build: { clock in
        AppSearchBloc(
          settings: FixedSettings(), storage: InMemoryStorage(),
          services: .using(FakeSearchService()), clock: clock)
      },
      act: { context in
        await context.bloc.send(.toggleMark(42))
        await context.bloc.send(.toggleMark(7))
        await context.bloc.send(.search("maps"))
        await context.bloc.send(.clear)
        await context.bloc.send(.toggleMark(42))
      },
      expect: [
        State(marks: [42]),
        State(marks: [7, 42]),
        State(term: "maps", marks: [7, 42], activity: .loading),
        State(term: "maps", results: FakeSearchService.apps(for: "maps"), marks: [7, 42]),
        State(marks: [7, 42]),
        State(marks: [7]),
      ])
  }

  @Test func aMarkToggledDuringASearchIsKeptWhenTheAnswerArrives() async {
    let service = FakeSearchService(gated: ["maps"])
    await blocTest(
      build: { clock in
        AppSearchBloc(
          settings: FixedSettings(), storage: InMemoryStorage(), services: .using(service),
          clock: clock)
      },
      act: { context in
        let search = context.bloc.add(.search("maps"))
        await eventually { service.gate.waiting == 1 }
        await context.bloc.send(.toggleMark(5))
        service.gate.open()
        #expect(await search.outcome.isHandled)
      },
      expect: [
        State(term: "maps", activity: .loading),
        State(term: "maps", marks: [5], activity: .loading),
        State(term: "maps", results: [App(id: 666, name: "stale answer for maps")], marks: [5]),
      ])
  }

  @Test func marksSurviveARestartInARealDirectory() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    func make() throws -> AppSearchBloc {
      AppSearchBloc(
        settings: FixedSettings(), storage: try FileStorage(directory: directory),
        services: .using(FakeSearchService()))
    }
    let first = try make()
    await first.send(.toggleMark(42))
    await first.send(.toggleMark(7))
    await first.send(.search("maps"))
    // toggleMark's outcome arrives once stored: the file is there before any close.
    #expect(
      try storedText(directory, "search-marks") == #"{"schemaVersion":1,"state":{"marks":[7,42]}}"#)
    await first.close()

    let second = try make()
    #expect(second.marksRestoreIssue == nil)
    #expect(second.state == State(marks: [7, 42]), "only the marks come back")
    await second.send(.toggleMark(42))
    await second.close()
    #expect(try make().state.marks == [7])
  }

  @Test func unreadableMarksAreKeptAsideAndReported() async throws {
    let storage = InMemoryStorage(["search-marks": Data("[1,2".utf8)])
    let bloc = AppSearchBloc(
      settings: FixedSettings(), storage: storage, services: .using(FakeSearchService()))
    #expect(bloc.state == State())
    let issue = try #require(bloc.marksRestoreIssue)
    #expect("\(issue)".contains("cannot read stored state 'search-marks'"))
    #expect(storage.snapshot["search-marks.unreadable-1"] == Data("[1,2".utf8))
    await bloc.send(.toggleMark(3))
    await bloc.close()
    #expect(String(decoding: storage.snapshot["search-marks"]!, as: UTF8.self).contains("[3]"))
  }

  @Test func toggleMarkFailsWhenTheMarksCannotBeStored() async throws {
    let bloc = AppSearchBloc(
      settings: FixedSettings(), storage: ReadOnlyStorage(), services: .using(FakeSearchService()))
    let outcome = await bloc.send(.toggleMark(9))
    #expect(failure(outcome)?.hasPrefix("cannot save state 'search-marks': read-only") == true)
    await bloc.close()
  }

  @Test func theThreeFeaturesShareOneStateDirectory() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let storage = try FileStorage(directory: directory)
    let settings = SettingsBloc(storage: storage)
    let search = AppSearchBloc(
      settings: settings, storage: storage, services: .using(FakeSearchService()))
    await settings.send(.set(.searchLimit, 3))
    await search.send(.toggleMark(1))
    await search.close()
    await settings.close()
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    #expect(files == ["search-marks.json", "settings.json"])
  }
}
