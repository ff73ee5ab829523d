/// A protocol error: what a failed reply carries as
/// `"error": {"code": "<snake_case>", "message": "<human text>"}`.
///
/// ```swift
/// let error = WireError.missingField("feature")
/// error.json  // {"code":"missing_field","message":"missing field 'feature'"}
/// Reply.failure(id: 3, error)
/// ```
public struct WireError: Error, Hashable, Sendable {
  public var code: ErrorCode
  public var message: String

  public init(_ code: ErrorCode, _ message: String) {
    self.code = code
    self.message = message
  }

  /// The error object as sent on the wire.
  public var json: JSON {
    ["code": .string(code.rawValue), "message": .string(message)]
  }

  /// Reads an error object; nil unless it has string `code` and `message`.
  public init?(json: JSON) {
    guard let code = json["code"]?.stringValue, let message = json["message"]?.stringValue
    else { return nil }
    self.init(ErrorCode(rawValue: code), message)
  }
}

extension WireError: CustomStringConvertible {
  /// `code: message`, e.g. `unknown_feature: no feature named 'x'`.
  public var description: String { "\(code.rawValue): \(message)" }
}

extension WireError {
  /// `missing_field`: "missing field 'name'".
  public static func missingField(_ name: String) -> WireError {
    WireError(.missingField, "missing field '\(name)'")
  }

  /// `invalid_field`: "field 'name' must be <expected>, got <type>".
  public static func invalidField(
    _ name: String, expected: String, got value: JSON
  )
    -> WireError
  {
    invalidField(name, expected: expected, got: value.typeName)
  }

  /// `invalid_field`: "field 'name' must be <expected>, got <type>", the JSON type by name.
  public static func invalidField(
    _ name: String, expected: String, got typeName: String
  ) -> WireError {
    WireError(.invalidField, "field '\(name)' must be \(expected), got \(typeName)")
  }

  /// `unknown_op`: "unknown op 'name'".
  public static func unknownOp(_ name: String) -> WireError {
    WireError(.unknownOp, "unknown op '\(name)'")
  }

  /// `unknown_feature`: "unknown feature 'name'".
  public static func unknownFeature(_ name: String) -> WireError {
    WireError(.unknownFeature, "unknown feature '\(name)'")
  }

  /// `unknown_event`: "feature 'f' has no event 'type'".
  public static func unknownEvent(_ type: String, feature: String) -> WireError {
    WireError(.unknownEvent, "feature '\(feature)' has no event '\(type)'")
  }

  /// `frame_too_large`: for `LineFramer.Event.oversized(byteCount)`.
  public static func frameTooLarge(byteCount: Int, limit: Int) -> WireError {
    WireError(
      .frameTooLarge, "frame of at least \(byteCount) bytes exceeds the limit of \(limit) bytes")
  }

  /// The `parse_error` or `invalid_utf8` error for bytes that are not JSON.
  public init(_ error: JSONError) {
    switch error.kind {
    case .invalidUTF8: self.init(.invalidUTF8, error.message)
    case .syntax, .nestingTooDeep: self.init(.parseError, "malformed JSON: \(error.message)")
    }
  }
}
