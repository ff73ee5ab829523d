/// Describes the events a bloc accepts and the shape of its state, so that a client (a CLI, a
/// daemon's `describe`) can build a valid event without reading source code.
///
/// ```swift
/// extension CounterEvent: DescribedEvent {
///   static let schema: [EventSchema] = [
///     EventSchema("increment", "Adds the step to the count."),
///     EventSchema("set", "Sets the count.", fields: [.init("value", .integer, "The new count.")]),
///   ]
/// }
/// ```
public protocol DescribedEvent: BlocEvent, Codable {
  /// Every event, by its `type` name as it appears in JSON.
  static var schema: [EventSchema] { get }
}

/// Describes the JSON shape of a state.
public protocol DescribedState: Codable, Sendable, Equatable {
  static var shape: [FieldSchema] { get }
}

/// One event: its `type` name, what it does, and its fields.
public struct EventSchema: Sendable, Equatable {
  public let type: String
  public let summary: String
  public let fields: [FieldSchema]

  public init(_ type: String, _ summary: String, fields: [FieldSchema] = []) {
    self.type = type
    self.summary = summary
    self.fields = fields
  }
}

/// One field of an event or a state.
public struct FieldSchema: Sendable, Equatable {
  public let name: String
  public let type: ValueType
  public let summary: String
  /// Whether the field must be present (an optional field may be absent or null).
  public let required: Bool

  public init(_ name: String, _ type: ValueType, _ summary: String, required: Bool = true) {
    self.name = name
    self.type = type
    self.summary = summary
    self.required = required
  }
}

/// The type of a field, with the constraints a client needs to know.
public indirect enum ValueType: Sendable, Equatable, CustomStringConvertible {
  case string
  case integer(minimum: Int? = nil, maximum: Int? = nil)
  case number
  case boolean
  /// A string that must be one of `values`.
  case oneOf([String])
  case array(ValueType)
  case object([FieldSchema])

  public static var integer: ValueType { .integer(minimum: nil, maximum: nil) }

  /// The JSON type name: string, integer, number, boolean, array or object.
  public var jsonType: String {
    switch self {
    case .string, .oneOf: return "string"
    case .integer: return "integer"
    case .number: return "number"
    case .boolean: return "boolean"
    case .array: return "array"
    case .object: return "object"
    }
  }

  public var description: String {
    switch self {
    case .string, .number, .boolean, .object: return jsonType
    case .integer(let minimum, let maximum):
      switch (minimum, maximum) {
      case (let low?, let high?): return "integer \(low)…\(high)"
      case (let low?, nil): return "integer ≥ \(low)"
      case (nil, let high?): return "integer ≤ \(high)"
      case (nil, nil): return "integer"
      }
    case .oneOf(let values): return "one of " + values.joined(separator: " | ")
    case .array(let element): return "array of \(element)"
    }
  }
}
