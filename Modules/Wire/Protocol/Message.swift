/// An incoming line on the client side: a reply to a request, or a push.
///
/// A line with a `"push"` key is a push; one with an `"ok"` key is a reply.
///
/// ```swift
/// switch try Message(parsing: line) {
/// case .reply(let reply) where reply.ok: print(reply.fields["state"] ?? nil)
/// case .reply(let reply): print(reply.error!.message)
/// case .push(let push): print(push.feature, push.sequence, push.state ?? nil)
/// }
/// ```
public enum Message: Hashable, Sendable {
  case reply(ReplyMessage)
  case push(PushMessage)

  /// Parses and classifies one line (without its terminator). Throws the same
  /// `parse_error` / `invalid_utf8` / `not_an_object` errors as requests, and
  /// `missing_field` / `invalid_field` for malformed replies and pushes.
  public init(parsing line: some Collection<UInt8>) throws(WireError) {
    let json: JSON
    do {
      json = try JSONParser().parse(line)
    } catch {
      throw WireError(error)
    }
    try self.init(json: json)
  }

  /// Classifies a parsed line; see `init(parsing:)`.
  public init(json: JSON) throws(WireError) {
    guard case .object(let object) = json else {
      throw WireError(.notAnObject, "message must be a JSON object, got \(json.typeName)")
    }
    if object["push"] != nil {
      self = .push(try PushMessage(object))
    } else if object["ok"] != nil {
      self = .reply(try ReplyMessage(object))
    } else {
      throw WireError(.missingField, "message has neither 'ok' nor 'push'")
    }
  }
}

/// A reply: `{"id": …, "ok": true|false, …}`.
public struct ReplyMessage: Hashable, Sendable {
  /// The echoed request id; nil when the request had none.
  public var id: RequestID?
  public var ok: Bool
  /// Every member except `"id"` and `"ok"` (a failure keeps its `"error"` here too).
  public var fields: JSONObject
  /// The decoded `"error"` of a failed reply; nil when `ok`.
  public var error: WireError?

  public init(id: RequestID?, ok: Bool, fields: JSONObject = [:], error: WireError? = nil) {
    self.id = id
    self.ok = ok
    self.fields = fields
    self.error = error
  }

  init(_ object: JSONObject) throws(WireError) {
    let (values, fields) = object.extracting(["ok", "id"])
    guard case .bool(let ok)? = values[0] else {
      throw .invalidField("ok", expected: "a boolean", got: values[0] ?? .null)
    }
    var id: RequestID?
    if let idValue = values[1] {
      guard let parsed = RequestID(json: idValue) else {
        throw .invalidField("id", expected: "an integer or a string", got: idValue)
      }
      id = parsed
    }
    var error: WireError?
    if !ok {
      guard let errorValue = fields["error"] else { throw .missingField("error") }
      guard let decoded = WireError(json: errorValue) else {
        throw .invalidField(
          "error", expected: "an object with string 'code' and 'message'", got: errorValue)
      }
      error = decoded
    }
    self.init(id: id, ok: ok, fields: fields, error: error)
  }
}

/// A push: `{"push": "<kind>", "feature": …, "seq": …, "state": …}`; a `watch … select`
/// push has `"select"` and `"value"` (in ``fields``) instead of `"state"`, and a `monitor`
/// push (kind `"event"`) has `"event"`, `"outcome"`, `"before"` and `"after"`.
public struct PushMessage: Hashable, Sendable {
  /// The push kind, e.g. `"state"`.
  public var kind: String
  public var feature: String
  /// Increases with each push for a watch, so gaps and reorderings show.
  public var sequence: Int
  /// The feature state; required for `"state"` pushes without `"select"`, nil otherwise.
  public var state: JSON?
  /// Any other members, in order.
  public var fields: JSONObject

  public init(
    kind: String, feature: String, sequence: Int, state: JSON?, fields: JSONObject = [:]
  ) {
    self.kind = kind
    self.feature = feature
    self.sequence = sequence
    self.state = state
    self.fields = fields
  }

  init(_ object: JSONObject) throws(WireError) {
    let (values, fields) = object.extracting(["push", "feature", "seq", "state"])
    guard case .string(let kind)? = values[0] else {
      throw .invalidField("push", expected: "a string", got: values[0] ?? .null)
    }
    guard let featureValue = values[1] else { throw .missingField("feature") }
    guard case .string(let feature) = featureValue else {
      throw .invalidField("feature", expected: "a string", got: featureValue)
    }
    guard let seqValue = values[2] else { throw .missingField("seq") }
    guard let sequence = seqValue.intValue else {
      throw .invalidField("seq", expected: "an integer", got: seqValue)
    }
    let state = values[3]
    // A `watch … select` push carries `select` and `value` instead of the state.
    if kind == Push.stateKind && state == nil && fields["select"] == nil {
      throw .missingField("state")
    }
    self.init(kind: kind, feature: feature, sequence: sequence, state: state, fields: fields)
  }
}
