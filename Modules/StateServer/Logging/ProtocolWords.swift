import BlocCore
import Wire

/// Events and states as the protocol writes them (compact JSON), for the log: a client reading
/// `{"type":"set","key":"searchLimit","value":500}` recognises its request, where Swift's
/// description shows internals (`set(SettingKey(stringValue: "searchLimit", …), 500)`).
enum ProtocolWords {
  /// `value`'s JSON when it writes itself (every feature's events and states do), else its
  /// description.
  static func text(_ value: Any) -> String {
    var json = JSONWriter()
    if let writable = value as? any JSONWritable, (try? writable.write(to: &json)) != nil {
      return String(decoding: json.bytes, as: UTF8.self)
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
