/// One request line: `{"id": …, "op": "<operation>", …op-specific fields}`.
///
/// Servers parse frames with `init(parsing:)`; clients build requests and
/// send `serialized()`.
///
/// ```swift
/// // Server
/// do {
///   let request = try Request(parsing: frame)
///   let feature = try request.string("feature")
/// } catch {
///   write(error.reply)  // {"id":…,"ok":false,"error":{…}}
/// }
///
/// // Client
/// let request = Request(id: 1, op: Request.Op.get, fields: ["feature": "counter"])
/// request.serialized()  // {"id":1,"op":"get","feature":"counter"}\n
/// ```
public struct Request: Hashable, Sendable {
  /// The correlation id, echoed in the reply; nil when the request had none.
  public var id: RequestID?
  /// The operation name, e.g. `"send"`.
  public var op: String
  /// The op-specific fields: every member except `"id"` and `"op"`, in order.
  public var fields: JSONObject

  public init(id: RequestID? = nil, op: String, fields: JSONObject = [:]) {
    self.id = id
    self.op = op
    self.fields = fields
  }

  /// The operation names of the protocol.
  public enum Op {
    public static let send = "send"
    public static let get = "get"
    public static let watch = "watch"
    public static let unwatch = "unwatch"
    public static let features = "features"
    public static let describe = "describe"
    public static let undo = "undo"
    public static let redo = "redo"
    public static let ping = "ping"
    public static let monitor = "monitor"
    public static let unmonitor = "unmonitor"
    public static let history = "history"
    public static let goto = "goto"
    public static let restore = "restore"
    /// The daemon's state: version, uptime, clients, counts, features, journal.
    public static let info = "info"
    /// All of the above.
    public static let all = [
      send, get, watch, unwatch, features, describe, undo, redo, ping, monitor, unmonitor, info,
      history, goto, restore,
    ]
  }
}

extension Request {
  /// Parses one frame (a line without its terminator).
  ///
  /// Checks, in order: UTF-8 (`invalid_utf8`), JSON syntax (`parse_error`), an
  /// object (`not_an_object`), `"id"` is a number or string (`invalid_field`),
  /// `"op"` is present (`missing_field`) and a string (`invalid_field`). The
  /// thrown `RequestError` carries the id whenever it could be read.
  /// Whether the op is known is the server's business (`unknown_op`).
  public init(parsing frame: some Collection<UInt8>) throws(RequestError) {
    let json: JSON
    do {
      json = try JSONParser().parse(frame)
    } catch {
      throw RequestError(id: nil, error: WireError(error))
    }
    try self.init(json: consume json)
  }

  /// Reads a request from a parsed JSON value; see `init(parsing:)`.
  public init(json: consuming JSON) throws(RequestError) {
    // Consumed, so that the parsed object's members become the fields where they lie (`id`
    // and `op` taken out in place).
    var object: JSONObject
    switch consume json {
    case .object(let members): object = members
    case let other:
      throw RequestError(
        id: nil,
        error: WireError(.notAnObject, "request must be a JSON object, got \(other.typeName)"))
    }
    var id: RequestID?
    if let idValue = object.removeValue(forKey: "id") {
      guard let parsed = RequestID(json: idValue) else {
        throw RequestError(
          id: nil, error: .invalidField("id", expected: "an integer or a string", got: idValue))
      }
      id = parsed
    }
    guard let opValue = object.removeValue(forKey: "op") else {
      throw RequestError(id: id, error: .missingField("op"))
    }
    guard case .string(let op) = opValue else {
      throw RequestError(id: id, error: .invalidField("op", expected: "a string", got: opValue))
    }
    self.init(id: id, op: op, fields: object)
  }

  /// The request as a JSON object: `id` (if any), `op`, then the fields.
  public var json: JSON {
    var object = JSONObject()
    if let id { object["id"] = id.json }
    object["op"] = .string(op)
    for (key, value) in fields where key != "id" && key != "op" {
      object[key] = value
    }
    return .object(object)
  }

  /// The request line to send, with its trailing `"\n"`.
  public func serialized() -> [UInt8] {
    var line = json.serialized()
    line.append(.lineFeed)
    return line
  }
}
