/// Finds apps for a query; the one dependency the AppSearch Bloc needs.
///
/// Implementations: ``ITunesSearchService`` (online) and
/// ``PackageCatalogService`` (offline, the machine's Debian packages).
///
/// ```swift
/// let service: any AppSearchService = PackageCatalogService.system
/// let apps = try await service.search(SearchQuery(term: "bash"))
/// ```
///
/// Contract:
/// - results are ordered best first and hold at most `query.limit` apps;
/// - a blank term answers `[]`;
/// - failures are thrown as ``SearchFailure``;
/// - a cancelled task throws `CancellationError` and never returns results,
///   so a stale answer can never overwrite a newer one.
public protocol AppSearchService: Sendable {
  func search(_ query: SearchQuery) async throws -> [App]
}
