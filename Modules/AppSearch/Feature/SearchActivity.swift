import FeatureKit

/// What the search is doing. JSON: `{"status":"idle"}`, `{"status":"loading"}`,
/// `{"status":"failed","message":"The search service answered with HTTP status 503."}`.
public enum SearchActivity: Sendable, Hashable {
  /// Nothing running; `results` belong to `term` (or both are empty).
  case idle
  /// A search for `term` is running; `results` are still those of the previous search.
  case loading
  /// The search for `term` failed; `results` are empty. The message is readable as is.
  case failed(String)

  /// The JSON `status`: `idle`, `loading` or `failed`.
  public var status: String {
    switch self {
    case .idle: return "idle"
    case .loading: return "loading"
    case .failed: return "failed"
    }
  }
}

extension SearchActivity: Codable {
  /// The JSON shape, for `describe`.
  public static let fieldType = FieldType.object([
    FieldShape("status", .oneOf(["idle", "loading", "failed"]), "What the search is doing."),
    FieldShape(
      "message", .string(), "Why the search failed; only with status failed.", required: false),
  ])

  private enum Field: String, CodingKey { case status, message }

  public init(from decoder: any Decoder) throws {
    let json = try decoder.container(keyedBy: Field.self)
    let status = try json.decode(String.self, forKey: .status)
    switch status {
    case "idle": self = .idle
    case "loading": self = .loading
    case "failed": self = .failed(try json.decode(String.self, forKey: .message))
    default:
      throw DecodingError.dataCorruptedError(
        forKey: .status, in: json,
        debugDescription: "status must be one of idle, loading, failed; got \"\(status)\"")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var json = encoder.container(keyedBy: Field.self)
    try json.encode(status, forKey: .status)
    if case .failed(let message) = self { try json.encode(message, forKey: .message) }
  }
}

extension SearchActivity: JSONWritable {
  /// `{"status":"idle"}`, or `{"message":"…","status":"failed"}` (members sorted).
  public func write(to json: inout JSONWriter) {
    if case .failed(let message) = self {
      json.ascii(#"{"message":"#)
      json.string(message)
      json.ascii(#","status":"failed"}"#)
    } else {
      json.ascii(#"{"status":"#)
      json.string(status)
      json.ascii("}")
    }
  }
}
