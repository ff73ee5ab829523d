import FeatureKit

/// One search result: an App Store app or a Debian package, in one shape.
///
/// The JSON form uses the property names as keys and leaves out nil fields,
/// so it stays small and stable for the wire and for saved state:
///
/// ```swift
/// let bash = App(id: 42, name: "bash", version: "5.2.15-2+b7", genre: "shells")
/// // {"genre":"shells","id":42,"name":"bash","version":"5.2.15-2+b7"}
/// ```
public struct App: DeclaredState, Hashable {
  /// Stable numeric identity: the iTunes `trackId`, or a hash of the package name; at most
  /// ``maximumID`` (2^53 − 1), so that every JSON client reads it exactly.
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

  /// The largest id: 2^53 − 1, the largest integer a JavaScript (or jq 1.6) client reads
  /// exactly.
  public static let maximumID: Int64 = (1 << 53) - 1

  /// An id's type in `describe`.
  public static let idType = FieldType.integer(minimum: 1, maximum: maximumID)

  public static let declaration = StateDeclaration(
    initial: App(id: 0, name: ""),
    .field(
      "id", \.id, "Stable id: the iTunes trackId or a hash of the package name.", type: idType),
    .field("name", \.name, "The app's or package's name."),
    .optional("version", \.version, "Its version.", type: .string()),
    .optional("genre", \.genre, "iTunes genre or Debian section.", type: .string()),
    .optional("developer", \.developer, "Artist or maintainer.", type: .string()),
    .optional("summary", \.summary, "First line of the description.", type: .string()),
    .optional("url", \.url, "Store page; App Store only.", type: .string()),
    .optional("rating", \.rating, "Average rating 0–5; App Store only.", type: .number))
}
