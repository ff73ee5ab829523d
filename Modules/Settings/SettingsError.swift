import FeatureKit

/// Why a settings event was refused. The state is unchanged.
///
/// ```swift
/// if case .failed(let error) = await settings.send(.set(.searchLimit, 500)) {
///   print(error)  // searchLimit must be an integer from 1 to 200; got 500
/// }
/// ```
public enum SettingsError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The value is of the wrong type or out of range for the setting.
  case invalidValue(SettingKey, SettingValue)
  /// The counter bounds would cross: `key` set to `value` against the other bound `other`.
  case boundsCrossed(SettingKey, value: Int, other: Int)
  /// No setting has this name.
  case unknownKey(String)

  public var description: String {
    switch self {
    case .invalidValue(let key, let value):
      return "\(key.rawValue) must be \(key.accepted); got \(value)"
    case .boundsCrossed(let key, let value, let other):
      let (relation, otherKey) =
        key == .counterMinimum ? ("above", SettingKey.counterMaximum) : ("below", .counterMinimum)
      return
        "\(key.rawValue) \(value) would be \(relation) \(otherKey.rawValue) \(other); the minimum must not exceed the maximum"
    case .unknownKey(let name):
      return "unknown setting \(FieldInput.quoted(name)); valid keys: \(SettingKey.list)"
    }
  }
}
