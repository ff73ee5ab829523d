import BlocCore
import Wire

/// Events and states as the protocol writes them (compact JSON), for the log: a client reading
/// `{"type":"set","key":"searchLimit","value":500}` recognises its request, where Swift's
/// description shows internals (`set(SettingKey(stringValue: "searchLimit", …), 500)`).
enum ProtocolWords {
  /// `value`'s JSON when it is `Encodable` (every feature's events and states are), else its
  /// description.
  static func text(_ value: Any) -> String {
    if let encodable = value as? any Encodable, let json = try? StateEncoder.encode(encodable) {
      return json.serializedString()
    }
    return String(describing: value)
  }
}

/// A handler's failure whose event the log can show in the protocol's words.
protocol FailedEvent {
  /// The event whose handler failed.
  var failedEvent: Any { get }
  /// What the handler threw.
  var error: any Error { get }
}

extension HandlerFailure: FailedEvent {
  var failedEvent: Any { event }
}
