import BlocCore

/// The search and the marks.
///
/// JSON:
/// ```json
/// {"activity":{"status":"idle"},"marks":[7,42],"term":"maps",
///  "results":[{"id":42,"name":"Maps","genre":"Navigation"}]}
/// ```
/// Only `marks` persist; a restarted bloc starts with an empty term, no results and `idle`.
public struct AppSearchState: Sendable, Hashable {
  /// The last searched term, trimmed; empty after `clear`.
  public internal(set) var term: String
  /// The results of the last search that finished, best first.
  public internal(set) var results: [App]
  /// Marked app ids, ascending, without repeats. Kept across searches and restarts.
  public internal(set) var marks: [Int64]
  public internal(set) var activity: SearchActivity

  /// Marks are sorted and their repeats removed.
  public init(
    term: String = "", results: [App] = [], marks: [Int64] = [], activity: SearchActivity = .idle
  ) {
    self.term = term
    self.results = results
    self.marks = Array(Set(marks)).sorted()
    self.activity = activity
  }

  /// Whether the app with this id is marked.
  public func isMarked(_ id: Int64) -> Bool { marks.contains(id) }
}

extension AppSearchState: Codable {
  private enum Field: String, CodingKey { case term, results, marks, activity }

  public init(from decoder: any Decoder) throws {
    let json = try decoder.container(keyedBy: Field.self)
    self.init(
      term: try json.decode(String.self, forKey: .term),
      results: try json.decode([App].self, forKey: .results),
      marks: try json.decode([Int64].self, forKey: .marks),
      activity: try json.decode(SearchActivity.self, forKey: .activity))
  }

  public func encode(to encoder: any Encoder) throws {
    var json = encoder.container(keyedBy: Field.self)
    try json.encode(term, forKey: .term)
    try json.encode(results, forKey: .results)
    try json.encode(marks, forKey: .marks)
    try json.encode(activity, forKey: .activity)
  }
}

extension AppSearchState: DescribedState {
  public static var shape: [FieldSchema] {
    [
      FieldSchema("term", .string, "The last searched term, trimmed; empty after clear."),
      FieldSchema(
        "results", .array(.object(App.shape)),
        "The results of the last search that finished, best first."),
      FieldSchema(
        "marks", .array(.integer), "Marked app ids, ascending; kept across searches and restarts."),
      FieldSchema(
        "activity",
        .object([
          FieldSchema(
            "status", .oneOf(["idle", "loading", "failed"]), "What the search is doing."),
          FieldSchema(
            "message", .string, "Why the search failed; only with status failed.",
            required: false),
        ]), "idle, loading, or failed with a readable message."),
    ]
  }
}

extension App {
  /// The JSON shape of an app; nil fields are left out.
  public static var shape: [FieldSchema] {
    [
      FieldSchema("id", .integer, "Stable id: the iTunes trackId or a hash of the package name."),
      FieldSchema("name", .string, "The app's or package's name."),
      FieldSchema("version", .string, "Its version.", required: false),
      FieldSchema("genre", .string, "iTunes genre or Debian section.", required: false),
      FieldSchema("developer", .string, "Artist or maintainer.", required: false),
      FieldSchema("summary", .string, "First line of the description.", required: false),
      FieldSchema("url", .string, "Store page; App Store only.", required: false),
      FieldSchema("rating", .number, "Average rating 0–5; App Store only.", required: false),
    ]
  }
}
