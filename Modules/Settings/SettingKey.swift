import BlocCore
import FeatureKit

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
  public var valueType: FieldType {
    switch self {
    case .searchBackend: return .oneOf(SearchBackend.allCases.map(\.rawValue))
    case .searchCountry: return .string(Self.countryCode)
    case .searchLimit: return .integer(minimum: 1, maximum: 200)
    case .searchThrottleMs: return .integer(minimum: 0, maximum: 10_000)
    case .counterStep: return .integer(minimum: 1)
    case .counterMinimum, .counterMaximum: return .integer()
    }
  }

  /// A valid value as JSON text, for messages.
  public var example: String {
    switch self {
    case .searchBackend: return "\"itunes\""
    case .searchCountry: return "\"de\""
    case .searchLimit: return "50"
    case .searchThrottleMs: return "500"
    case .counterStep: return "2"
    case .counterMinimum: return "0"
    case .counterMaximum: return "10"
    }
  }

  /// Whether a value of this JSON type can be this setting's (its range is checked when the
  /// event is handled).
  public func admitsType(of value: SettingValue) -> Bool {
    switch (valueType, value) {
    case (.integer, .integer), (.string, .string), (.oneOf, .string): return true
    case (_, .null): return isOptional
    default: return false
    }
  }

  /// Two ASCII letters: an ISO 3166 alpha-2 country code.
  public static let countryCode = StringRule(
    "two letters, an ISO 3166 country code such as \"us\" or \"de\"", pattern: "^[A-Za-z]{2}$"
  ) { code in
    code.unicodeScalars.count == 2
      && code.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) }
  }

  /// Whether null is a valid value (it clears the setting).
  public var isOptional: Bool { self == .counterMinimum || self == .counterMaximum }

  /// The setting as a field of the state's shape.
  public var shape: FieldShape {
    FieldShape(
      rawValue, valueType, summary + " Default: \(SettingsState.defaults.value(of: self)).",
      required: !isOptional, example: example)
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
