/// One request line: `{"id": …, "op": "<operation>", …op-specific fields}`.
///
/// Clients build requests and send `serialized()`; a server reads frames with
/// `RequestHead` (no tree), or with `init(parsing:)` when it wants every field as a tree.
///
/// ```swift
/// // Server
/// do {
///   let request = try RequestHead(reading: bytes)  // a frame's bytes
///   request.op  // "get"
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
  /// Reads one frame (a line without its terminator) as `RequestHead` does, with the same
  /// checks and errors, then takes every other member as `fields`.
  public init(parsing frame: some Collection<UInt8>) throws(RequestError) {
    let read = Array(frame).withUnsafeBytes { bytes in
      Result { () throws(RequestError) -> (RequestID?, String, JSONObject) in
        let head = try RequestHead(reading: bytes)
        return (head.id, head.op, head.fields)
      }
    }
    let (id, op, fields) = try read.get()
    self.init(id: id, op: op, fields: fields)
  }

  /// The field `key`, or nil if absent.
  public subscript(key: String) -> JSON? { fields[key] }

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
