import BlocCore
import FeatureKit

/// Every setting, always valid: values only change through ``setting(_:to:)``, which refuses
/// what a setting does not accept.
///
/// JSON (every key present, `null` for an unset bound):
/// ```json
/// {"counterMaximum":null,"counterMinimum":null,"counterStep":1,"searchBackend":"packages",
///  "searchCountry":"us","searchLimit":20,"searchThrottleMs":200}
/// ```
public struct SettingsState: Sendable, Hashable {
  public internal(set) var searchBackend = SearchBackend.packages
  /// Lowercase ISO 3166 alpha-2.
  public internal(set) var searchCountry = "us"
  /// 1…200.
  public internal(set) var searchLimit = 20
  /// 0…10000.
  public internal(set) var searchThrottleMs = 200
  /// At least 1.
  public internal(set) var counterStep = 1
  /// At most ``counterMaximum`` when both are set.
  public internal(set) var counterMinimum: Int?
  public internal(set) var counterMaximum: Int?

  /// Every setting at its default.
  public static let defaults = SettingsState()

  init() {}

  /// The value of one setting.
  ///
  /// ```swift
  /// SettingsState.defaults.value(of: .searchLimit)  // .integer(20)
  /// ```
  public func value(of key: SettingKey) -> SettingValue {
    switch key {
    case .searchBackend: return .string(searchBackend.rawValue)
    case .searchCountry: return .string(searchCountry)
    case .searchLimit: return .integer(searchLimit)
    case .searchThrottleMs: return .integer(searchThrottleMs)
    case .counterStep: return .integer(counterStep)
    case .counterMinimum: return counterMinimum.map(SettingValue.integer) ?? .null
    case .counterMaximum: return counterMaximum.map(SettingValue.integer) ?? .null
    }
  }
}

extension SettingsState: PersistableState, DeclaredState {
  /// Version 1: the flat object above. A key missing from a stored value takes its default, so
  /// adding a setting needs no new version.
  public static var schemaVersion: Int { 1 }

  /// One field per ``SettingKey``; each stored value is validated like ``setting(_:to:)`` does.
  public static let declaration = StateDeclaration(
    initial: SettingsState.defaults,
    fields: SettingKey.allCases.map { key in
      StateField<SettingsState>(
        key.shape, value: { state in state.value(of: key) },
        read: { (state: inout SettingsState, object: KeyedDecodingContainer<FieldKey>) in
          let name = FieldKey(key.rawValue)
          guard object.contains(name) else { return }
          let value = try object.decode(SettingValue.self, forKey: name)
          do throws(SettingsError) {
            state = try state.setting(key, to: value)
          } catch {
            throw DecodingError.dataCorruptedError(
              forKey: name, in: object, debugDescription: error.description)
          }
        })
    })
}
