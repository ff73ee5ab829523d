import Foundation

/// Builds the iTunes Search API request URL for a query.
///
/// ```swift
/// ITunesRequestURL.make(base: URL(string: "https://itunes.apple.com/search")!,
///                       term: "a+b & c", country: "us", limit: 5)
/// // https://itunes.apple.com/search?term=a%2Bb%20%26%20c&media=software&country=us&limit=5
/// ```
enum ITunesRequestURL {
  /// Only RFC 3986 "unreserved" bytes go out literally. `URLQueryItem` would
  /// leave `+` alone (servers read it as a space) and, depending on the
  /// Foundation version, `&`, `=` and `;` too, so everything else is encoded.
  private static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

  static func make(base: URL, term: String, country: String, limit: Int) -> URL {
    let ours = [
      ("term", term), ("media", "software"), ("country", country), ("limit", String(limit)),
    ]
    .map { "\($0)=\(encode($1))" }
    .joined(separator: "&")
    guard var components = URLComponents(url: base, resolvingAgainstBaseURL: true) else {
      return base
    }
    // Keep parameters the caller put in the base URL (e.g. `?lang=en_us`).
    let existing = components.percentEncodedQuery.map { $0.isEmpty ? "" : $0 + "&" } ?? ""
    components.percentEncodedQuery = existing + ours
    return components.url ?? base
  }

  static func encode(_ value: String) -> String {
    // Cannot fail: every String is valid Unicode, so it always has a UTF-8 form.
    value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
  }
}
