/// Why a search failed, in terms a user (or a Bloc's error state) can show.
///
/// Cancellation is not a failure: a cancelled search throws `CancellationError`.
///
/// ```swift
/// do { apps = try await service.search(query) } catch let failure as SearchFailure {
///   print(failure)  // "The search service answered with HTTP status 503."
/// }
/// ```
public enum SearchFailure: Error, Equatable, Sendable, CustomStringConvertible {
  /// The server answered, but not with a 2xx status.
  case httpStatus(Int)
  /// No complete answer arrived within the configured timeout.
  case timedOut
  /// The server could not be reached (refused, unknown host, TLS, network down).
  case unreachable(String)
  /// The answer arrived but was not the documented JSON shape.
  case malformedReply(String)
  /// A package catalog file could not be read.
  case catalogUnavailable(path: String, reason: String)

  public var description: String {
    switch self {
    case .httpStatus(let code):
      return "The search service answered with HTTP status \(code)."
    case .timedOut:
      return "The search service did not answer in time."
    case .unreachable(let reason):
      return "The search service could not be reached: \(reason)."
    case .malformedReply(let reason):
      return "The search service sent an unreadable answer: \(reason)."
    case .catalogUnavailable(let path, let reason):
      return "The package catalog \(path) could not be read: \(reason)."
    }
  }
}
