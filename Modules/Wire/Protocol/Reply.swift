/// Builds reply lines, byte-exact and ready to write (trailing `"\n"` included).
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
  /// `{"id":…,"ok":true,…fields}\n`
  public static func success(id: RequestID?, fields: JSONObject = [:]) -> [UInt8] {
    var line = start(id: id, ok: true)
    for (key, value) in fields where key != "id" && key != "ok" {
      line.append(.comma)
      JSONSerializer.writeString(key, to: &line)
      line.append(.colon)
      JSONSerializer.write(value, to: &line)
    }
    return finish(&line)
  }

  /// `{"id":…,"ok":false,"error":{"code":…,"message":…}}\n`
  public static func failure(id: RequestID?, _ error: WireError) -> [UInt8] {
    var line = start(id: id, ok: false)
    line.append(literal: #","error":{"code":"#)
    JSONSerializer.writeString(error.code.rawValue, to: &line)
    line.append(literal: #","message":"#)
    JSONSerializer.writeString(error.message, to: &line)
    line.append(.closeBrace)
    return finish(&line)
  }

  private static func start(id: RequestID?, ok: Bool) -> [UInt8] {
    var line: [UInt8] = []
    line.reserveCapacity(128)
    line.append(.openBrace)
    switch id {
    case .number(let value)?:
      line.append(literal: #""id":"#)
      JSONSerializer.writeInteger(value, to: &line)
      line.append(.comma)
    case .string(let value)?:
      line.append(literal: #""id":"#)
      JSONSerializer.writeString(value, to: &line)
      line.append(.comma)
    case nil: break
    }
    line.append(literal: ok ? #""ok":true"# : #""ok":false"#)
    return line
  }

  private static func finish(_ line: inout [UInt8]) -> [UInt8] {
    line.append(.closeBrace)
    line.append(.lineFeed)
    return line
  }
}
