import BlocCore
import FeatureKit

/// The search and the marks.
///
/// JSON:
/// ```json
/// {"activity":{"status":"idle"},"marks":[{"backend":"itunes","id":42,"name":"Maps"}],
///  "results":[{"genre":"Navigation","id":42,"name":"Maps"}],"term":"maps"}
/// ```
/// Only `marks` persist; a restarted bloc starts with an empty term, no results and `idle`.
public struct AppSearchState: DeclaredState, Hashable {
  /// The last searched term, trimmed; empty after `clear`.
  public internal(set) var term: String
  /// The results of the last search that finished, best first.
  public internal(set) var results: [App]
  /// Marked apps, by ascending id, without repeats. Kept across searches and restarts.
  public internal(set) var marks: [Mark]
  public internal(set) var activity: SearchActivity
  /// Where `results` came from, for the marks made from them. Not part of the JSON nor of
  /// equality: two states that read the same are the same.
  var resultsSource: SearchSource?

  /// Marks are sorted by id and their repeats removed.
  public init(
    term: String = "", results: [App] = [], marks: [Mark] = [], activity: SearchActivity = .idle
  ) {
    self.term = term
    self.results = results
    var seen = Set<Int64>()
    self.marks = marks.filter { seen.insert($0.id).inserted }.sorted { $0.id < $1.id }
    self.activity = activity
  }

  /// Whether the app with this id is marked.
  public func isMarked(_ id: Int64) -> Bool { marks.contains { $0.id == id } }

  /// The marked ids, ascending.
  public var markedIDs: [Int64] { marks.map(\.id) }

  public static func == (lhs: AppSearchState, rhs: AppSearchState) -> Bool {
    lhs.term == rhs.term && lhs.results == rhs.results && lhs.marks == rhs.marks
      && lhs.activity == rhs.activity
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(term)
    hasher.combine(results)
    hasher.combine(marks)
    hasher.combine(activity)
  }

  public static let declaration = StateDeclaration(
    initial: AppSearchState(),
    .field("term", \.term, "The last searched term, trimmed; empty after clear."),
    .field(
      "results", \.results, "The results of the last search that finished, best first.",
      type: .array(.object(App.shape))),
    .field(
      "marks", \.marks,
      "Marked apps by ascending id, with the name and backend to show them by; kept across "
        + "searches and restarts.",
      type: .array(.object(Mark.shape))),
    .field(
      "activity", \.activity, "idle, loading, or failed with a readable message.",
      type: SearchActivity.fieldType))
}
