/// The state changes the bloc's handlers make, as plain mutations.
extension AppSearchState {
  /// A search for `term` starts; previous results stay until it finishes.
  mutating func begin(_ term: String) {
    self.term = term
    activity = .loading
  }

  /// The search for `term` in `source` finished. Ignored unless that search is still the one
  /// loading (after `clear`, or once a newer search began, its answer is stale). Returns
  /// whether it applied.
  @discardableResult
  mutating func finish(
    _ term: String, from source: SearchSource, with answer: Result<[App], any Error>
  ) -> Bool {
    guard self.term == term, activity == .loading else { return false }
    switch answer {
    case .success(let apps):
      results = apps
      resultsSource = source
      activity = .idle
    case .failure(let error):
      results = []
      resultsSource = nil
      activity = .failed(Self.message(for: error))
    }
    return true
  }

  /// Clears the term and results, keeps the marks.
  mutating func clearSearch() {
    term = ""
    results = []
    resultsSource = nil
    activity = .idle
  }

  /// Unmarks the app if marked; else marks it, if it is among the results.
  mutating func toggleMark(_ id: Int64) throws(AppSearchError) {
    if let index = marks.firstIndex(where: { $0.id == id }) {
      marks.remove(at: index)
      return
    }
    guard let app = results.first(where: { $0.id == id }) else { throw .unknownApp(id) }
    marks.insert(
      Mark(app, from: resultsSource), at: marks.firstIndex { $0.id > id } ?? marks.endIndex)
  }

  /// Removes every mark.
  mutating func clearMarks() { marks = [] }

  /// A readable sentence: a ``SearchFailure``'s description, or the error's.
  static func message(for error: any Error) -> String {
    if error is CancellationError { return "The search was cancelled." }
    return String(describing: error)
  }
}
