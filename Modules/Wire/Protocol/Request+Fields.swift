/// Typed access to a request's op-specific fields, throwing the protocol error
/// a server should reply with (`missing_field` or `invalid_field`).
///
/// ```swift
/// let feature = try request.string("feature")   // missing_field if absent
/// let event = try request.event()               // {"type": "increment", "by": 2}
/// event.type     // "increment"
/// event.fields   // ["by": 2]
/// ```
extension Request {
  /// The field `key`, or nil if absent.
  public subscript(key: String) -> JSON? { fields[key] }

  /// The field `key`, of any type; `missing_field` if absent.
  public func value(_ key: String) throws(WireError) -> JSON {
    guard let value = fields[key] else { throw .missingField(key) }
    return value
  }

  /// The string field `key`.
  public func string(_ key: String) throws(WireError) -> String {
    let value = try value(key)
    guard case .string(let text) = value else {
      throw .invalidField(key, expected: "a string", got: value)
    }
    return text
  }

  /// The integer field `key` (an integral number within `Int`).
  public func int(_ key: String) throws(WireError) -> Int {
    let value = try value(key)
    guard let number = value.intValue else {
      throw .invalidField(key, expected: "an integer", got: value)
    }
    return number
  }

  /// The boolean field `key`.
  public func bool(_ key: String) throws(WireError) -> Bool {
    let value = try value(key)
    guard case .bool(let flag) = value else {
      throw .invalidField(key, expected: "a boolean", got: value)
    }
    return flag
  }

  /// The object field `key`.
  public func object(_ key: String) throws(WireError) -> JSONObject {
    let value = try value(key)
    guard case .object(let object) = value else {
      throw .invalidField(key, expected: "an object", got: value)
    }
    return object
  }

  /// The `"event"` of a `send`: an object with a string `"type"`.
  public func event() throws(WireError) -> EventPayload {
    var fields = try object("event")
    guard let type = fields.removeValue(forKey: "type") else {
      throw .missingField("event.type")
    }
    guard case .string(let name) = type else {
      throw .invalidField("event.type", expected: "a string", got: type)
    }
    return EventPayload(type: name, fields: fields)
  }
}

/// The event of a `send` request: its `"type"` and its other fields.
public struct EventPayload: Hashable, Sendable {
  /// The event type, e.g. `"increment"`.
  public var type: String
  /// Every member of the event object except `"type"`, in order.
  public var fields: JSONObject

  public init(type: String, fields: JSONObject = [:]) {
    self.type = type
    self.fields = fields
  }

  /// The event as sent: `{"type": …, …fields}`.
  public var json: JSON {
    var object: JSONObject = ["type": .string(type)]
    for (key, value) in fields where key != "type" { object[key] = value }
    return .object(object)
  }
}
