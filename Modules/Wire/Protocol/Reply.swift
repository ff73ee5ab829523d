/// Builds reply lines, byte-exact and ready to write (trailing `"\n"` included), with
/// ``ReplyWriter``.
///
/// The id comes first and is omitted when the request had none; `"ok"` comes
/// next, then the fields in order. Fields named `"id"` or `"ok"` are ignored.
///
/// ```swift
/// Reply.success(id: 7, fields: ["outcome": "handled", "state": ["count": 1]])
/// // {"id":7,"ok":true,"outcome":"handled","state":{"count":1}}\n
/// Reply.failure(id: nil, .unknownFeature("x"))
/// // {"ok":false,"error":{"code":"unknown_feature","message":"unknown feature 'x'"}}\n
/// ```
public enum Reply {
  public static func success(id: RequestID?, fields: JSONObject = [:]) -> [UInt8] {
    var reply = ReplyWriter(id: id, ok: true)
    for (key, value) in fields where key != "id" && key != "ok" {
      reply.member(key, value)
    }
    return reply.finish()
  }

  public static func failure(id: RequestID?, _ error: WireError) -> [UInt8] {
    ReplyWriter.failure(id: id, error)
  }
}
