import AppSearch
import BlocCore

/// A scriptable ``AppSearchService``: records every query, answers `apps(for:)`, fails for the
/// terms in `failures`, and holds the terms in `gated` at `gate` until it opens or the search
/// is cancelled. A held search answers even when cancelled (a badly behaved service), so tests
/// prove the bloc itself never shows a stale answer.
final class FakeSearchService: AppSearchService {
  let gate = Gate()
  private let gated: Set<String>
  private let failures: [String: SearchFailure]
  private let log = Locked<(queries: [SearchQuery], cancelled: [String])>(([], []))

  init(gated: Set<String> = [], failures: [String: SearchFailure] = [:]) {
    self.gated = gated
    self.failures = failures
  }

  /// The answer for a term: one app named after it.
  static func apps(for term: String) -> [App] {
    [App(id: Int64(term.unicodeScalars.count), name: term, summary: "found by \(term)")]
  }

  var queries: [SearchQuery] { log.withLock { $0.queries } }
  /// Held terms whose wait ended because their search was cancelled.
  var cancelled: [String] { log.withLock { $0.cancelled } }

  func search(_ query: SearchQuery) async throws -> [App] {
    log.withLock { $0.queries.append(query) }
    if gated.contains(query.term) {
      await gate.wait()
      if Task.isCancelled { log.withLock { $0.cancelled.append(query.term) } }
      return [App(id: 666, name: "stale answer for \(query.term)")]
    }
    if let failure = failures[query.term] { throw failure }
    return Self.apps(for: query.term)
  }
}
