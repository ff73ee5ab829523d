/// The machine-readable `"code"` of a protocol error, a snake_case string.
///
/// The protocol's codes are static members; a server may define more:
///
/// ```swift
/// extension ErrorCode { static let busy: ErrorCode = "busy" }
/// WireError(.unknownFeature, "no feature named 'countr'")
/// ```
public struct ErrorCode: RawRepresentable, Hashable, Sendable {
  public let rawValue: String

  public init(rawValue: String) { self.rawValue = rawValue }

  /// The frame is not well-formed JSON.
  public static let parseError: ErrorCode = "parse_error"
  /// The frame is not well-formed UTF-8.
  public static let invalidUTF8: ErrorCode = "invalid_utf8"
  /// The frame is JSON but not an object.
  public static let notAnObject: ErrorCode = "not_an_object"
  /// A required field is absent.
  public static let missingField: ErrorCode = "missing_field"
  /// A field has the wrong type or an unacceptable value.
  public static let invalidField: ErrorCode = "invalid_field"
  /// The `"op"` names no operation the server knows.
  public static let unknownOp: ErrorCode = "unknown_op"
  /// The `"feature"` names no feature the server serves.
  public static let unknownFeature: ErrorCode = "unknown_feature"
  /// The event `"type"` is not one the feature accepts.
  public static let unknownEvent: ErrorCode = "unknown_event"
  /// The frame exceeds the server's size limit.
  public static let frameTooLarge: ErrorCode = "frame_too_large"
  /// The feature failed while handling the event.
  public static let eventFailed: ErrorCode = "event_failed"
  /// The change could not be stored (disk full, state directory gone, I/O error); the state
  /// is as it was before it.
  public static let storageFailed: ErrorCode = "storage_failed"
  /// The operation is valid but not supported here (e.g. undo without history).
  public static let notSupported: ErrorCode = "not_supported"
  /// The `seq` asked for names no retained state of the feature: older than the oldest
  /// retained, in the future, or a change that was never stored.
  public static let seqNotRetained: ErrorCode = "seq_not_retained"
  /// The server failed; not the client's fault.
  public static let internalError: ErrorCode = "internal_error"
}

extension ErrorCode: ExpressibleByStringLiteral {
  public init(stringLiteral value: String) { self.init(rawValue: value) }
}

extension ErrorCode: CustomStringConvertible {
  public var description: String { rawValue }
}
