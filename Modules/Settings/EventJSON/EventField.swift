/// The coding key of one flat field of an event's JSON object, by name.
///
/// ```swift
/// var json = encoder.container(keyedBy: EventField.self)
/// try json.encode("set", forKey: .type)
/// try json.encode(5, forKey: EventField("value"))
/// ```
///
/// Shared by the feature modules under `@_spi(FeatureSupport)` until the core offers event JSON
/// helpers of its own.
@_spi(FeatureSupport) public struct EventField: CodingKey, Hashable, Sendable {
  public let stringValue: String
  public var intValue: Int? { nil }

  public init(_ name: String) { stringValue = name }
  public init?(stringValue: String) { self.init(stringValue) }
  public init?(intValue: Int) { nil }

  /// The discriminator every event carries.
  public static let type = EventField("type")
}
