import AppSearch
import BlocCore
import Foundation
import Testing

/// Issue 17: a mark change the storage refuses is never shown, never built upon and never
/// stored later, like any other change.
@Suite struct AppSearchRefusedMarksTests {
  /// One app per search: "a" finds id 1, "ab" id 2, "abc" id 3 (see `FakeSearchService`).
  static func mark(_ term: String) -> Mark {
    Mark(FakeSearchService.apps(for: term)[0], from: .packages)
  }

  /// The stored text of the marks of `terms`' apps, less its `seq` (which refused changes and
  /// their rollbacks advance, unstored).
  static func stored(_ terms: String...) -> String {
    let marks = terms.map { term in
      #"{"backend":"packages","id":\#(term.count),"name":"\#(term)"}"#
    }
    return #"{"schemaVersion":2,"state":{"marks":[\#(marks.joined(separator: ","))]}}"#
  }

  static func withoutSequence(_ text: String?) -> String? {
    text?.replacing(#/"seq":\d+,/#, with: "")
  }

  static func make(_ storage: any BlocStorage) -> AppSearchBloc {
    AppSearchBloc(
      configuration: FixedSearchConfiguration(.init(throttle: .zero)), storage: storage,
      services: .using(FakeSearchService()))
  }

  @Test func aRefusedMarkChangeIsNeverShownBuiltUponOrStoredLater() async throws {
    let storage = FullDiskStorage()
    let bloc = Self.make(storage)
    let seen = Locked<[[Int64]]>([])
    let token = bloc.listen { update in
      seen.withLock { seen in
        if seen.last != update.state.markedIDs { seen.append(update.state.markedIDs) }
      }
    }
    await bloc.send(.search("a"))
    #expect(await bloc.send(.toggleMark(1)).isHandled)

    storage.full = true
    await bloc.send(.search("ab"))
    let refused: [AppSearchEvent] = [.toggleMark(2), .toggleMark(1), .clearMarks]
    for event in refused {
      let outcome = await bloc.send(event)
      #expect(
        failure(outcome) == "cannot save state 'search-marks': No space left on device",
        "\(event)")
      #expect(bloc.state.marks == [Self.mark("a")], "\(event) is not shown")
      #expect(Self.withoutSequence(storage.text("search-marks")) == Self.stored("a"))
    }

    storage.full = false
    await bloc.send(.search("abc"))
    #expect(await bloc.send(.toggleMark(3)).isHandled)
    #expect(bloc.state.marks == [Self.mark("a"), Self.mark("abc")], "built on the stored marks")
    #expect(Self.withoutSequence(storage.text("search-marks")) == Self.stored("a", "abc"))
    bloc.removeListener(token)
    #expect(seen.withLock { $0 } == [[], [1], [1, 3]], "no refused marks were ever pushed")
    await bloc.close()

    let restarted = Self.make(storage.inner)
    #expect(restarted.state.marks == [Self.mark("a"), Self.mark("abc")])
    await restarted.close()
  }

  /// Nothing to change, nothing to store: clearing no marks succeeds even on a full disk.
  @Test func clearingNoMarksNeedsNoSpace() async {
    let storage = FullDiskStorage()
    let bloc = Self.make(storage)
    storage.full = true
    #expect(await bloc.send(.clearMarks).isHandled)
    #expect(storage.text("search-marks") == nil)
    await bloc.close()
  }
}
