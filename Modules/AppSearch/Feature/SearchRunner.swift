import BlocCore

/// Runs one search: reads the configuration, asks the source's service, and emits the answer
/// unless it became stale. A failure the state shows is thrown too, so the event ends `failed`.
///
/// ```swift
/// AppSearchHandling(.search) { needs, emit in try await needs.runner.run(term, emit) }
/// ```
struct SearchRunner: Sendable {
  let configuration: any SearchConfigurationSource
  let services: AppSearchServices

  func run(_ term: String, _ emit: Emitter<AppSearchState>) async throws {
    try Task.checkCancellation()
    let now = configuration.configuration
    let term = term.trimmed
    let query = SearchQuery(term: term, country: now.country, limit: now.limit)
    emit.update { $0.begin(term) }
    let answer: Result<[App], any Error>
    do {
      answer = .success(try await services.service(for: now.source).search(query))
    } catch {
      answer = .failure(error)
    }
    // Superseded by a newer search, cleared, or closed: the emitter is inactive, so nothing is
    // emitted and the outcome is cancelled, whatever the service answered.
    guard emit.isActive else { return }
    var applied = false
    emit.update { applied = $0.finish(term, from: now.source, with: answer) }
    if applied, case .failure(let error) = answer { throw error }
  }
}
