/// The state changes the bloc's handlers make, as plain mutations.
extension AppSearchState {
  /// A search for `term` starts; previous results stay until it finishes.
  mutating func begin(_ term: String) {
    self.term = term
    activity = .loading
  }

  /// The search for `term` finished. Ignored unless that search is still the one loading (after
  /// `clear`, or once a newer search began, its answer is stale).
  mutating func finish(_ term: String, with answer: Result<[App], any Error>) {
    guard self.term == term, activity == .loading else { return }
    switch answer {
    case .success(let apps):
      results = apps
      activity = .idle
    case .failure(let error):
      results = []
      activity = .failed(Self.message(for: error))
    }
  }

  /// Clears the term and results, keeps the marks.
  mutating func clearSearch() {
    term = ""
    results = []
    activity = .idle
  }

  /// Marks the app, or unmarks it if marked.
  mutating func toggleMark(_ id: Int64) {
    if let index = marks.firstIndex(of: id) {
      marks.remove(at: index)
    } else {
      marks.insert(id, at: marks.firstIndex { $0 > id } ?? marks.endIndex)
    }
  }

  /// A readable sentence: a ``SearchFailure``'s description, or the error's.
  static func message(for error: any Error) -> String {
    if error is CancellationError { return "The search was cancelled." }
    return String(describing: error)
  }
}
