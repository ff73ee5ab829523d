/// A frame that is not a valid request: the error to reply with, and the
/// request's id when it could be read (so the reply can still be correlated).
///
/// ```swift
/// do { _ = try Request(parsing: Array(#"{"id":4}"#.utf8)) } catch {
///   error.id           // 4
///   error.error.code   // .missingField
///   error.reply        // {"id":4,"ok":false,"error":{"code":"missing_field",…}}\n
/// }
/// ```
public struct RequestError: Error, Hashable, Sendable {
  /// The request's id, if the frame was a JSON object with a valid id.
  public var id: RequestID?
  public var error: WireError

  public init(id: RequestID?, error: WireError) {
    self.id = id
    self.error = error
  }

  /// The failure reply line for this error.
  public var reply: [UInt8] { Reply.failure(id: id, error) }
}

extension RequestError: CustomStringConvertible {
  public var description: String { error.description }
}
