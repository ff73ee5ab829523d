import BlocCore
import FeatureKit

/// What can be done to the settings.
///
/// ```swift
/// await settings.send(.set(.searchLimit, 50))
/// await settings.send(.reset(.searchLimit))
/// await settings.send(.resetAll)
/// ```
/// JSON: `{"type":"set","key":"searchLimit","value":50}`, `{"type":"reset","key":"searchLimit"}`,
/// `{"type":"resetAll"}`.
///
/// An event is written in this file three times: its case, its declared JSON, its handling
/// (the `switch` in ``SettingsState/applying(_:defaults:)``). Forgetting the handling does not
/// compile; forgetting the declaration fails the conformance test every registered feature gets.
public enum SettingsEvent: BlocEvent, Hashable {
  /// Sets one setting; refused (``SettingsError``) when the setting does not accept the value.
  case set(SettingKey, SettingValue)
  /// Puts one setting back to its default.
  case reset(SettingKey)
  /// Puts every setting back to its default.
  case resetAll
}

extension SettingsEvent: DeclaredEvent {
  /// The events' JSON, validation and `describe` schema, declared once. The value's JSON type
  /// must suit the key (its range is checked when the event is handled).
  public static let declaration = EventDeclaration<SettingsEvent>(
    feature: SettingsFeature.name,
    .event(
      "set", "Sets one setting; refused with a message when the value is not accepted.",
      .oneOf("key", "The setting.", SettingKey.self), settingValue,
      example: #"{"type":"set","key":"searchLimit","value":50}"#
    ) { key, value throws(EventRefusal) in
      guard let value else {
        guard key.isOptional else {
          throw EventRefusal(
            .missingField,
            "missing field 'event.value' (\(key.valueType) for \(key.rawValue)): "
              + "\(key.summary) Example: {\"type\":\"set\",\"key\":\"\(key.rawValue)\","
              + "\"value\":\(key.example)}")
        }
        return .set(key, .null)
      }
      guard key.admitsType(of: value) else {
        throw .invalidField("value", "must be \(key.accepted) (for \(key.rawValue)), got \(value)")
      }
      return .set(key, value)
    },
    .event(
      "reset", "Puts one setting back to its default.",
      .oneOf("key", "The setting.", SettingKey.self), SettingsEvent.reset),
    .event("resetAll", "Puts every setting back to its default.") { .resetAll })

  /// `value`: an integer, a string or null, as the key needs; absent reads as nil.
  static let settingValue = Field<SettingValue?>(
    FieldShape(
      "value", .anyOf([.integer(), .string(), .null]),
      "The new value, typed per key as in the state's shape: an integer for searchLimit, "
        + "searchThrottleMs, counterStep, counterMinimum and counterMaximum; a string for "
        + "searchBackend and searchCountry; null (or absent) clears counterMinimum or "
        + "counterMaximum.",
      required: false, example: "50"),
    absent: .some(nil), readsNull: true
  ) { input, path throws(EventRefusal) in
    switch input {
    case .null: return .null
    case .string(let text): return .string(text)
    case .integer, .number:
      return .integer(try input.integer(at: path, as: .integer()))
    default:
      throw EventRefusal(
        .invalidField, "field '\(path)' must be an integer, a string or null, got \(input.sketch)")
    }
  }
}

extension SettingsState {
  /// Applies an event: set one setting, reset one, or reset all (to `defaults`). The handling
  /// of every event, in one exhaustive `switch` (the bloc's reducer).
  public func applying(
    _ event: SettingsEvent, defaults: SettingsState = .defaults
  ) throws(SettingsError) -> SettingsState {
    switch event {
    case .set(let key, let value): return try setting(key, to: value)
    case .reset(let key): return resetting(key, to: defaults)
    case .resetAll: return defaults
    }
  }
}
