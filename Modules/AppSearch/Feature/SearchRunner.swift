import BlocCore
import Settings

/// Runs one search: reads the settings, asks the backend's service, and emits the answer unless
/// it became stale.
///
/// ```swift
/// on(.search, transformer: .throttle { … }) { event, emit in try await runner.run(term, emit) }
/// ```
struct SearchRunner: Sendable {
  let settings: any SettingsProvider
  let services: AppSearchServices
  let edits: StateEdits<AppSearchState>

  func run(_ term: String, _ emit: Emitter<AppSearchState>) async throws {
    try Task.checkCancellation()
    let now = settings.current
    let term = term.trimmed
    let query = SearchQuery(term: term, country: now.searchCountry, limit: now.searchLimit)
    edits.apply(emit) { $0.begin(term) }
    let answer: Result<[App], any Error>
    do {
      answer = .success(try await services.service(for: now.searchBackend).search(query))
    } catch {
      answer = .failure(error)
    }
    // Superseded by a newer search, or closed: the emitter is inactive, so `apply` emits
    // nothing and the outcome is cancelled, whatever the service answered.
    edits.apply(emit) { $0.finish(term, with: answer) }
  }
}
