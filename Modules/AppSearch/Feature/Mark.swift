import FeatureKit

/// A marked app: enough of it to show after a restart, when no results are there.
///
/// JSON: `{"backend":"packages","id":6502726493411571,"name":"bash"}`.
public struct Mark: DeclaredState, Hashable {
  /// The app's id, as in results.
  public var id: Int64
  /// The app's name; nil only for marks stored by version 1 (ids only).
  public var name: String?
  /// Where the app was found; nil only for marks stored by version 1 that were not packages.
  public var backend: SearchSource?

  public init(id: Int64, name: String?, backend: SearchSource?) {
    self.id = id
    self.name = name
    self.backend = backend
  }

  /// The mark of `app`, found in `backend`.
  public init(_ app: App, from backend: SearchSource?) {
    self.init(id: app.id, name: app.name, backend: backend)
  }

  public static let declaration = StateDeclaration(
    initial: Mark(id: 0, name: nil, backend: nil),
    .field("id", \.id, "The app's id, as in results.", type: App.idType),
    .optional(
      "name", \.name, "The app's name (absent only for marks kept from version 1).",
      type: .string()),
    .optional(
      "backend", \.backend, "Where it was found: packages or itunes.",
      type: .oneOf(SearchSource.allCases.map(\.rawValue))))
}
