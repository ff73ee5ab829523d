import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A status code and body, the only parts of an HTTP answer the search needs.
struct HTTPReply: Sendable {
  var status: Int
  var body: Data
}

/// One GET with a hard deadline, cancellation, and errors as ``SearchFailure``.
///
/// ```swift
/// let reply = try await HTTPFetch.get(request, session: session, timeout: .seconds(10))
/// ```
enum HTTPFetch {
  /// Races the request against a timer. URLSession's own timeout is not used
  /// for this: corelibs Foundation truncates it to whole seconds (a 0.5 s
  /// timeout fires at once), and it limits idle time, not the whole exchange.
  static func get(
    _ request: URLRequest, session: URLSession, timeout: Duration
  ) async throws
    -> HTTPReply
  {
    try await withThrowingTaskGroup(of: HTTPReply?.self) { group in
      group.addTask { try await send(request, session: session) }
      group.addTask {
        try await Task.sleep(for: timeout)
        return nil
      }
      // Whichever finishes first decides; cancelling the other closes the socket.
      defer { group.cancelAll() }
      guard let first = try await group.next(), let reply = first else {
        throw SearchFailure.timedOut
      }
      return reply
    }
  }

  private static func send(_ request: URLRequest, session: URLSession) async throws -> HTTPReply {
    let data: Data
    let response: URLResponse
    do {
      // The async API cancels the underlying transfer when the task is cancelled.
      (data, response) = try await session.data(for: request)
    } catch let error as URLError {
      throw failure(for: error)
    }
    guard let http = response as? HTTPURLResponse else {
      throw SearchFailure.malformedReply("not an HTTP response")
    }
    return HTTPReply(status: http.statusCode, body: data)
  }

  /// Maps transport errors onto the few cases a user can act on.
  static func failure(for error: URLError) -> any Error {
    let host = error.failingURL.map(hostDescription) ?? "the server"
    switch error.code {
    case .cancelled:
      return CancellationError()
    case .timedOut:
      return SearchFailure.timedOut
    case .cannotFindHost, .dnsLookupFailed:
      return SearchFailure.unreachable("unknown host \(host)")
    case .cannotConnectToHost:
      return SearchFailure.unreachable("cannot connect to \(host)")
    case .networkConnectionLost:
      return SearchFailure.unreachable("connection to \(host) lost")
    case .notConnectedToInternet:
      return SearchFailure.unreachable("no network connection")
    case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
      .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
      return SearchFailure.unreachable("secure connection to \(host) failed")
    case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData,
      .cannotDecodeContentData:
      return SearchFailure.malformedReply("broken HTTP response from \(host)")
    default:
      return SearchFailure.unreachable("\(host): \(error.localizedDescription)")
    }
  }

  private static func hostDescription(_ url: URL) -> String {
    guard let host = url.host else { return "the server" }
    return url.port.map { "\(host):\($0)" } ?? host
  }
}
