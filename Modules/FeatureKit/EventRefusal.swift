/// Why an event's JSON was refused: which of the protocol's errors, and a message that says
/// what was wrong and what is accepted.
///
/// ```swift
/// do { _ = try JSONDecoder().decode(CounterEvent.self, from: Data(#"{"type":"set"}"#.utf8)) }
/// catch { print(error) }  // missing field 'event.value' (integer): The new count. Example: …
/// ```
public struct EventRefusal: Error, Sendable, Equatable, CustomStringConvertible {
  /// The protocol's error code for the refusal.
  public enum Reason: String, Sendable {
    /// `type` names no event of the feature.
    case unknownEvent = "unknown_event"
    /// A required field is absent (or null).
    case missingField = "missing_field"
    /// A field has the wrong type or value, or is not a field of the event.
    case invalidField = "invalid_field"
  }

  public let reason: Reason
  public let message: String

  public init(_ reason: Reason, _ message: String) {
    self.reason = reason
    self.message = message
  }

  public var description: String { message }

  /// A refusal of the field `name` (use it for checks across fields):
  /// `field 'event.value' <problem>`.
  public static func invalidField(_ name: String, _ problem: String) -> EventRefusal {
    EventRefusal(.invalidField, "field 'event.\(name)' \(problem)")
  }

  /// `field 'event.value' must be integer 1…200, got "abc"`.
  static func mismatch(_ path: String, _ type: FieldType, _ input: FieldInput) -> EventRefusal {
    EventRefusal(.invalidField, "field '\(path)' must be \(type), got \(input.sketch)")
  }
}
