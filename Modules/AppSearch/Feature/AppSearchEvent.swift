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

  /// Blank searches get a lane of their own, so that they never reach the throttled search
  /// lane and never cancel a real search. Both mark events share one lane: marks change in the
  /// order their events arrive, and are stored in that order.
  public enum Kind: Hashable, Sendable { case search, blankSearch, marks, clear }

  public var kind: Kind {
    switch self {
    case .search(let term): return term.isBlank ? .blankSearch : .search
    case .toggleMark, .clearMarks: return .marks
    case .clear: return .clear
    }
  }
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

extension String {
  /// Without surrounding whitespace (Unicode spaces and newlines included).
  var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
  var isBlank: Bool { trimmed.isEmpty }
}
