import BlocCore
@_spi(FeatureSupport) import Settings

extension AppSearchEvent: DescribedEvent {
  public static let schema: [EventSchema] = [
    EventSchema(
      "search",
      "Searches through the Settings backend. Throttled by searchThrottleMs keeping the latest; "
        + "a newer search cancels the one in flight; a blank term changes nothing.",
      fields: [FieldSchema("term", .string, "Free text; surrounding whitespace is ignored.")]),
    EventSchema(
      "toggleMark", "Marks the app, or unmarks it if marked. Marks persist.",
      fields: [FieldSchema("id", .integer, "The app's id, as in results.")]),
    EventSchema("clear", "Clears the term and results; keeps the marks."),
  ]

  /// Reads `{"type":"search","term":…}`, `{"type":"toggleMark","id":…}` or `{"type":"clear"}`.
  public init(from decoder: any Decoder) throws {
    let json = try EventReader(
      decoder, feature: AppSearchFeature.name, types: Self.schema.map(\.type))
    switch json.type {
    case "search": self = .search(try json.field("term", accepting: "a string"))
    case "toggleMark": self = .toggleMark(try json.field("id", accepting: "an integer app id"))
    default: self = .clear
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var json = encoder.container(keyedBy: EventField.self)
    switch self {
    case .search(let term):
      try json.encode("search", forKey: .type)
      try json.encode(term, forKey: EventField("term"))
    case .toggleMark(let id):
      try json.encode("toggleMark", forKey: .type)
      try json.encode(id, forKey: EventField("id"))
    case .clear:
      try json.encode("clear", forKey: .type)
    }
  }
}
