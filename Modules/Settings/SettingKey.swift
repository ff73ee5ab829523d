import BlocCore

/// The name of one setting, as it appears in events and in the state's JSON.
///
/// ```swift
/// SettingKey(rawValue: "searchLimit")   // .searchLimit
/// SettingKey.searchLimit.accepted       // "an integer from 1 to 200"
/// ```
public enum SettingKey: String, CaseIterable, Codable, CodingKey, Sendable {
  case searchBackend, searchCountry, searchLimit, searchThrottleMs
  case counterStep, counterMinimum, counterMaximum

  /// Every key, comma-separated, for messages.
  public static var list: String { allCases.map(\.rawValue).joined(separator: ", ") }

  /// What the setting accepts, as a noun phrase for messages.
  public var accepted: String {
    switch self {
    case .searchBackend:
      return "one of " + SearchBackend.allCases.map(\.rawValue).joined(separator: ", ")
    case .searchCountry: return "a two-letter ISO 3166 country code such as \"us\" or \"de\""
    case .searchLimit: return "an integer from 1 to 200"
    case .searchThrottleMs: return "an integer from 0 to 10000 (milliseconds)"
    case .counterStep: return "an integer of at least 1"
    case .counterMinimum, .counterMaximum: return "an integer, or null for no bound"
    }
  }

  /// What the setting does.
  public var summary: String {
    switch self {
    case .searchBackend: return "Where AppSearch looks: the machine's packages or the App Store."
    case .searchCountry: return "The App Store country; stored lowercase."
    case .searchLimit: return "The most results a search returns."
    case .searchThrottleMs: return "At most one search per this many milliseconds."
    case .counterStep: return "What increment adds and decrement subtracts."
    case .counterMinimum: return "The lowest count allowed; null: none."
    case .counterMaximum: return "The highest count allowed; null: none."
    }
  }

  /// The JSON type of the setting's value, with its constraints.
  public var valueType: ValueType {
    switch self {
    case .searchBackend: return .oneOf(SearchBackend.allCases.map(\.rawValue))
    case .searchCountry: return .string
    case .searchLimit: return .integer(minimum: 1, maximum: 200)
    case .searchThrottleMs: return .integer(minimum: 0, maximum: 10_000)
    case .counterStep: return .integer(minimum: 1)
    case .counterMinimum, .counterMaximum: return .integer
    }
  }

  /// Whether null is a valid value (it clears the setting).
  public var isOptional: Bool { self == .counterMinimum || self == .counterMaximum }

  /// The setting as a field of the state's shape.
  public var field: FieldSchema {
    FieldSchema(
      rawValue, valueType, summary + " Default: \(SettingsState.defaults.value(of: self)).",
      required: !isOptional)
  }
}

extension SettingKey {
  /// The key with this name; throws ``SettingsError/unknownKey(_:)`` listing the valid keys.
  ///
  /// ```swift
  /// try SettingKey(named: "searchLimit")  // .searchLimit
  /// ```
  public init(named name: String) throws(SettingsError) {
    guard let key = SettingKey(rawValue: name) else { throw .unknownKey(name) }
    self = key
  }
}
