import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Searches the App Store through the iTunes Search API.
///
/// ```swift
/// let service = ITunesSearchService(timeout: .seconds(5))
/// let apps = try await service.search(SearchQuery(term: "maps", country: "de"))
/// ```
///
/// The term is percent-encoded so that `&`, `=`, `+`, `#` and non-ASCII text
/// reach the server as part of the term; a non-2xx status, a timeout, an
/// unreachable host or an unexpected body each become a ``SearchFailure``.
public final class ITunesSearchService: AppSearchService {
  /// The public endpoint, `https://itunes.apple.com/search`.
  public static let defaultBaseURL = URL(string: "https://itunes.apple.com/search")!

  /// The API answers at most this many results per request.
  public static let maximumLimit = 200

  public let baseURL: URL
  /// Upper bound for one whole search: connect, send, and read the answer.
  public let timeout: Duration
  private let session: URLSession

  public init(baseURL: URL = ITunesSearchService.defaultBaseURL, timeout: Duration = .seconds(10)) {
    self.baseURL = baseURL
    self.timeout = timeout
    let configuration = URLSessionConfiguration.ephemeral
    // A backstop only (HTTPFetch enforces `timeout`), set well above it:
    // this Foundation truncates to whole seconds, so 0.5 s would fire at once.
    let seconds = Double(timeout.components.seconds) + 3
    configuration.timeoutIntervalForRequest = seconds
    configuration.timeoutIntervalForResource = seconds
    // Results change all the time; a cached answer would be a stale answer.
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    session = URLSession(configuration: configuration)
  }

  deinit {
    // Without this the session (and its delegate queue) lives forever.
    session.finishTasksAndInvalidate()
  }

  public func search(_ query: SearchQuery) async throws -> [App] {
    guard !query.isEmpty else { return [] }
    let limit = min(query.limit, Self.maximumLimit)
    let url = ITunesRequestURL.make(
      base: baseURL, term: query.trimmedTerm, country: query.country, limit: limit)
    var request = URLRequest(url: url)
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    do {
      let reply = try await HTTPFetch.get(request, session: session, timeout: timeout)
      guard (200..<300).contains(reply.status) else {
        throw SearchFailure.httpStatus(reply.status)
      }
      let apps = try ITunesReply.apps(from: reply.body)
      // Never hand a cancelled caller results: they may already be stale.
      try Task.checkCancellation()
      return Array(apps.prefix(limit))
    } catch  where Task.isCancelled {
      // Whatever raced the cancellation (timer, transport), the caller asked to stop.
      throw CancellationError()
    }
  }
}
