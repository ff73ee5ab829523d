import Foundation

/// What to search for.
///
/// ```swift
/// let query = SearchQuery(term: "maps", country: "de", limit: 10)
/// ```
///
/// A blank `term` or a `limit` below 1 asks for nothing: every service answers
/// `[]` without doing any work.
public struct SearchQuery: Codable, Sendable, Hashable {
  /// Free text; leading and trailing whitespace is ignored.
  public var term: String
  /// Two-letter store country (`us`, `de`, …); the package catalog ignores it.
  public var country: String
  /// The most results to return.
  public var limit: Int

  public init(term: String, country: String = "us", limit: Int = 20) {
    self.term = term
    self.country = country
    self.limit = limit
  }

  /// The term without surrounding whitespace; empty means "nothing to search".
  var trimmedTerm: String {
    term.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// True when the query cannot match anything, so no work should be done.
  var isEmpty: Bool { limit < 1 || trimmedTerm.isEmpty }
}
