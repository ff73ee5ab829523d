import Foundation

/// The iTunes Search API answer, decoded leniently and then checked, so a
/// bad answer is reported with a short, specific reason.
///
/// ```json
/// {"resultCount": 1, "results": [{"trackId": 1, "trackName": "Maps"}]}
/// ```
struct ITunesReply: Decodable {
  struct Result: Decodable {
    var trackId: Int64?
    var trackName: String?
    var version: String?
    var primaryGenreName: String?
    var artistName: String?
    var description: String?
    var trackViewUrl: String?
    var averageUserRating: Double?
  }

  var results: [Result]

  /// Decodes `data` into apps, or throws ``SearchFailure/malformedReply(_:)``.
  static func apps(from data: Data) throws(SearchFailure) -> [App] {
    let reply: ITunesReply
    do {
      reply = try JSONDecoder().decode(ITunesReply.self, from: data)
    } catch {
      throw .malformedReply(reason(for: error))
    }
    var apps: [App] = []
    apps.reserveCapacity(reply.results.count)
    for (index, result) in reply.results.enumerated() {
      guard let id = result.trackId else { throw .malformedReply("result \(index) has no trackId") }
      guard (1...App.maximumID).contains(id) else {
        throw .malformedReply("result \(index) has trackId \(id), outside 1…2^53 − 1")
      }
      guard let name = result.trackName else {
        throw .malformedReply("result \(index) has no trackName")
      }
      apps.append(
        App(
          id: id, name: name, version: result.version, genre: result.primaryGenreName,
          developer: result.artistName, summary: result.description.flatMap(firstLine),
          url: result.trackViewUrl, rating: result.averageUserRating))
    }
    return apps
  }

  /// The first non-blank line, trimmed; App Store descriptions are long.
  static func firstLine(_ text: String) -> String? {
    text.split(whereSeparator: \.isNewline)
      .lazy
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .first { !$0.isEmpty }
  }

  /// One line instead of `DecodingError`'s full debug dump.
  private static func reason(for error: any Error) -> String {
    func path(_ context: DecodingError.Context) -> String {
      context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
        .joined(separator: ".")
    }
    switch error as? DecodingError {
    case .keyNotFound(let key, let context)?:
      let at = path(context)
      return "missing \(at.isEmpty ? key.stringValue : at + "." + key.stringValue)"
    case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
      return "unexpected value at \(path(context))"
    case .dataCorrupted(let context)?:
      return context.codingPath.isEmpty ? "not JSON" : "bad value at \(path(context))"
    default:
      return "\(error)"
    }
  }
}
