import BlocCore
import Foundation

/// What can be done to the search.
///
/// ```swift
/// search.add(.search("maps"))
/// await search.send(.toggleMark(42))
/// await search.send(.clear)
/// ```
/// JSON: `{"type":"search","term":"maps"}`, `{"type":"toggleMark","id":42}`, `{"type":"clear"}`.
public enum AppSearchEvent: BlocEvent, Hashable {
  /// Searches for the term (trimmed). Throttled by `searchThrottleMs`, keeping the latest term;
  /// a newer search cancels one in flight. A blank term is handled with no change at all: it
  /// neither searches nor cancels a search in flight.
  case search(String)
  /// Marks the app with this id, or unmarks it; stored before the outcome arrives.
  case toggleMark(Int64)
  /// Clears the term and the results; keeps the marks. A search in flight finishes unseen.
  case clear

  /// Each kind has its own lane; blank searches get a lane of their own, so that they never
  /// reach the throttled search lane and never cancel a real search.
  public enum Kind: Hashable, Sendable { case search, blankSearch, toggleMark, clear }

  public var kind: Kind {
    switch self {
    case .search(let term): return term.isBlank ? .blankSearch : .search
    case .toggleMark: return .toggleMark
    case .clear: return .clear
    }
  }
}

extension String {
  /// Without surrounding whitespace (Unicode spaces and newlines included).
  var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
  var isBlank: Bool { trimmed.isEmpty }
}
