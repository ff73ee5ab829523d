/// Why a byte sequence is not valid JSON, and where.
///
/// `offset` is the 0-based byte offset of the problem in the input.
///
/// ```swift
/// do { _ = try JSON(parsing: Array(#"{"a" 1}"#.utf8)) } catch {
///   error.kind     // .syntax
///   error.offset   // 5
///   error.message  // "expected ':' after object key, found '1' at byte 5"
/// }
/// ```
public struct JSONError: Error, Equatable, Sendable {
  /// The family of the problem.
  public enum Kind: Equatable, Sendable {
    /// The bytes are UTF-8 but not JSON grammar (includes lone surrogate
    /// escapes and numbers out of `Double` range).
    case syntax
    /// The bytes are not well-formed UTF-8.
    case invalidUTF8
    /// Arrays and objects nest deeper than the parser's `maxDepth`.
    case nestingTooDeep
  }

  public let kind: Kind
  /// 0-based byte offset in the input.
  public let offset: Int
  /// What is wrong, without the position, e.g. "expected ':' after object key, found '1'".
  public let reason: String

  public init(_ kind: Kind, _ reason: String, at offset: Int) {
    self.kind = kind
    self.reason = reason
    self.offset = offset
  }

  /// `reason` with the position, e.g. "invalid UTF-8 at byte 4".
  public var message: String { "\(reason) at byte \(offset)" }
}

extension JSONError: CustomStringConvertible {
  public var description: String { message }
}
