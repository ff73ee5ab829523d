import BlocCore

extension SettingsEvent: DescribedEvent {
  public static let schema: [EventSchema] = [
    EventSchema(
      "set", "Sets one setting; refused with a message when the value is not accepted.",
      fields: [
        FieldSchema("key", .oneOf(SettingKey.allCases.map(\.rawValue)), "The setting."),
        FieldSchema(
          "value", .integer,
          "The new value, typed per key as in the state's shape: an integer for searchLimit, "
            + "searchThrottleMs, counterStep, counterMinimum and counterMaximum; a string for "
            + "searchBackend and searchCountry; null (or absent) clears counterMinimum or "
            + "counterMaximum.",
          required: false),
      ]),
    EventSchema(
      "reset", "Puts one setting back to its default.",
      fields: [FieldSchema("key", .oneOf(SettingKey.allCases.map(\.rawValue)), "The setting.")]),
    EventSchema("resetAll", "Puts every setting back to its default."),
  ]

  /// Reads `{"type":"set","key":…,"value":…}`, `{"type":"reset","key":…}` or
  /// `{"type":"resetAll"}`. The value's JSON type must suit the key (its range is checked when
  /// the event is handled).
  public init(from decoder: any Decoder) throws {
    let json = try EventReader(
      decoder, feature: SettingsFeature.name, types: Self.schema.map(\.type))
    let keys = "one of " + SettingKey.list
    switch json.type {
    case "set":
      let key: SettingKey = try json.field("key", accepting: keys)
      let accepted = "\(key.accepted) (for \(key.rawValue))"
      switch key.valueType {
      case .integer where key.isOptional:
        let bound: Int? = try json.optionalField("value", accepting: accepted)
        self = .set(key, bound.map(SettingValue.integer) ?? .null)
      case .integer:
        self = .set(key, .integer(try json.field("value", accepting: accepted)))
      default:
        self = .set(key, .string(try json.field("value", accepting: accepted)))
      }
    case "reset":
      self = .reset(try json.field("key", accepting: keys))
    default:
      self = .resetAll
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var json = encoder.container(keyedBy: EventField.self)
    switch self {
    case .set(let key, let value):
      try json.encode("set", forKey: .type)
      try json.encode(key, forKey: EventField("key"))
      try json.encode(value, forKey: EventField("value"))
    case .reset(let key):
      try json.encode("reset", forKey: .type)
      try json.encode(key, forKey: EventField("key"))
    case .resetAll:
      try json.encode("resetAll", forKey: .type)
    }
  }
}
