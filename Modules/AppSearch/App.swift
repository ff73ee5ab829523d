/// One search result: an App Store app or a Debian package, in one shape.
///
/// The JSON form uses the property names as keys and leaves out nil fields,
/// so it stays small and stable for the wire and for saved state:
///
/// ```swift
/// let bash = App(id: 42, name: "bash", version: "5.2.15-2+b7", genre: "shells")
/// // {"genre":"shells","id":42,"name":"bash","version":"5.2.15-2+b7"}
/// ```
public struct App: Codable, Sendable, Hashable {
  /// Stable numeric identity: the iTunes `trackId`, or a hash of the package name.
  public var id: Int64
  public var name: String
  public var version: String?
  /// iTunes `primaryGenreName`, or the Debian `Section`.
  public var genre: String?
  /// iTunes `artistName`, or the Debian `Maintainer`.
  public var developer: String?
  /// The first line of the description.
  public var summary: String?
  /// The store page (iTunes `trackViewUrl`); nil for packages.
  public var url: String?
  /// iTunes `averageUserRating` (0–5); nil for packages.
  public var rating: Double?

  public init(
    id: Int64, name: String, version: String? = nil, genre: String? = nil,
    developer: String? = nil, summary: String? = nil, url: String? = nil, rating: Double? = nil
  ) {
    self.id = id
    self.name = name
    self.version = version
    self.genre = genre
    self.developer = developer
    self.summary = summary
    self.url = url
    self.rating = rating
  }
}
