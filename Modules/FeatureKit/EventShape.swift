/// An event as `describe` shows it: its `type`, what it does, and its fields.
public struct EventShape: Sendable, Equatable {
  public let type: String
  public let summary: String
  public let fields: [FieldShape]
  /// A valid event of this type as JSON text: `{"type":"set","value":5}`.
  public let example: String
  /// Whether its result depends on the outside world (``EventCase/effectful()``).
  public var hasEffects = false
}

extension EventCase {
  /// The event as `describe` shows it.
  public var shape: EventShape {
    EventShape(
      type: type, summary: summary, fields: fields, example: example, hasEffects: hasEffects)
  }
}

extension EventDeclaration {
  /// Every event as `describe` shows it, in declaration order.
  public var shapes: [EventShape] { cases.map(\.shape) }
}
