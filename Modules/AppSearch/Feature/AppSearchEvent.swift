import BlocCore
import FeatureKit
import Foundation

/// What can be done to the search.
///
/// ```swift
/// search.add(.search("maps"))
/// await search.send(.toggleMark(42))
/// await search.send(.clear)
/// ```
/// JSON: `{"type":"search","term":"maps"}`, `{"type":"toggleMark","id":42}`, `{"type":"clear"}`,
/// `{"type":"clearMarks"}`.
///
/// An event is written in this file three times: its case, its declared JSON, its handling
/// (the `switch` in `handling` below, which also picks its ``AppSearchLane``). Forgetting the
/// handling does not compile; forgetting the declaration fails the conformance test every
/// registered feature gets (FeatureConformanceTests).
public enum AppSearchEvent: BlocEvent, Hashable {
  /// Searches for the term (trimmed). Throttled by the configuration's throttle, keeping the
  /// latest term; a newer search cancels one in flight. A blank term is handled with no change
  /// at all: it neither searches nor cancels a search in flight. A search whose service fails
  /// shows the failure in the state and ends `failed`.
  case search(String)
  /// Unmarks the app with this id, or marks it if it is among the results (refused with
  /// ``AppSearchError/unknownApp(_:)`` otherwise); stored before the outcome arrives.
  case toggleMark(Int64)
  /// Clears the term and the results; keeps the marks. A search in flight finishes unseen.
  case clear
  /// Removes every mark; stored before the outcome arrives.
  case clearMarks

  /// The lane the event is handled in, as its handling says: the bloc's handlers are per lane.
  public var kind: AppSearchLane { handling.lane }
}

extension AppSearchEvent: DeclaredEvent {
  /// The events' JSON, validation and `describe` schema, declared once.
  public static let declaration = EventDeclaration<AppSearchEvent>(
    feature: AppSearchFeature.name,
    .event(
      "search",
      "Searches through the Settings backend. Throttled by searchThrottleMs keeping the latest; "
        + "a newer search cancels the one in flight; a blank term changes nothing; a failed "
        + "search shows its message in activity and ends failed.",
      .string("term", "Free text; surrounding whitespace is ignored.", example: "maps"),
      AppSearchEvent.search
    )
    // Its results come from a catalog or the App Store, not from the state.
    .effectful(),
    .event(
      "toggleMark",
      "Marks an app of the results, or unmarks a marked one; refused for any other id. Marks "
        + "persist.",
      .integer64(
        "id", "The app's id, as in results or marks.", minimum: 1, maximum: App.maximumID,
        example: 42), AppSearchEvent.toggleMark),
    .event("clear", "Clears the term and results; keeps the marks.") { .clear },
    .event("clearMarks", "Removes every mark.") { .clearMarks })
}

extension AppSearchEvent {
  /// The handling of every event, in one exhaustive `switch`: the lane it joins (how it
  /// overlaps with the others) and its work.
  var handling: AppSearchHandling {
    switch self {
    case .search(let term) where term.isBlank:
      // Changes nothing, so it need not wait for (nor delay, nor cancel) anything.
      return AppSearchHandling(.unchanged) { _, _ in }
    case .search(let term):
      return AppSearchHandling(.search) { needs, emit in try await needs.runner.run(term, emit) }
    case .toggleMark(let id):
      return AppSearchHandling(.marks) { needs, emit in
        try await needs.marks.change(emit) { state in try state.toggleMark(id) }
      }
    case .clear:
      return AppSearchHandling(.clear) { _, emit in emit.update { $0.clearSearch() } }
    case .clearMarks:
      return AppSearchHandling(.marks) { needs, emit in
        try await needs.marks.change(emit) { state in state.clearMarks() }
      }
    }
  }
}

extension String {
  /// Without surrounding whitespace (Unicode spaces and newlines included).
  var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
  var isBlank: Bool { trimmed.isEmpty }
}
