import BlocCore
@_spi(FeatureSupport) import Settings

extension CounterEvent: DescribedEvent {
  public static let schema: [EventSchema] = [
    EventSchema("increment", "Adds counterStep; refused if the count would exceed counterMaximum."),
    EventSchema(
      "decrement", "Subtracts counterStep; refused if the count would go below counterMinimum."),
    EventSchema("reset", "Sets the count to 0, or to the nearest bound when 0 is outside them."),
    EventSchema(
      "set", "Sets the count; refused outside the bounds.",
      fields: [FieldSchema("value", .integer, "The new count.")]),
  ]

  /// Reads `{"type":"increment"}`, `{"type":"decrement"}`, `{"type":"reset"}` or
  /// `{"type":"set","value":5}`.
  public init(from decoder: any Decoder) throws {
    let json = try EventReader(
      decoder, feature: CounterFeature.name, types: Self.schema.map(\.type))
    switch json.type {
    case "increment": self = .increment
    case "decrement": self = .decrement
    case "reset": self = .reset
    default: self = .set(try json.field("value", accepting: "an integer"))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var json = encoder.container(keyedBy: EventField.self)
    switch self {
    case .increment: try json.encode("increment", forKey: .type)
    case .decrement: try json.encode("decrement", forKey: .type)
    case .reset: try json.encode("reset", forKey: .type)
    case .set(let value):
      try json.encode("set", forKey: .type)
      try json.encode(value, forKey: EventField("value"))
    }
  }
}
