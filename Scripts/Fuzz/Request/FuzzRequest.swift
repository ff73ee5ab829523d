import FuzzSupport
import Wire

/// Fuzzes request reading as the daemon reads every frame (`RequestHead(parsing:)`: the whole
/// frame checked by `JSONCursor`, then `id` and `op` from its bytes) and the member reads its
/// ops make. Checked:
///
/// - a frame that reads serializes (`Request(parsing:)`, `serialized()`) to one line that
///   reads to an equal request;
/// - a member read from the bytes (`withMember`) is the same value as in the parsed tree;
/// - every refusal is a reply the protocol allows: one line of JSON,
///   `{"ok":false,"error":{"code":…,"message":…}}`, carrying the request's id when it could
///   be read.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  checkRequest(UnsafeRawBufferPointer(start: data, count: size))
  return 0
}

func checkRequest(_ frame: UnsafeRawBufferPointer) {
  let head: RequestHead
  do {
    head = try RequestHead(parsing: Array(frame))
  } catch {
    checkFailureReply(error.reply, id: error.id)
    return
  }
  let request: Request
  do {
    request = try Request(parsing: frame)
  } catch {
    fuzzCheck(false, "RequestHead read the frame but Request refused it: \(error)")
    return
  }
  fuzzCheck(head.id == request.id && head.op == request.op, "RequestHead and Request differ")

  var line = request.serialized()
  fuzzCheck(line.last == 0x0A, "serialized request does not end with a line feed")
  line.removeLast()
  fuzzCheck(!line.contains(0x0A), "serialized request spans lines: \(request)")
  do {
    let again = try Request(parsing: line)
    fuzzCheck(again == request, "round trip changed the request: \(request) became \(again)")
  } catch {
    fuzzCheck(false, "serialized request does not parse (\(error)): \(request)")
  }

  // The members the ops read, straight from the bytes: the same values as in the tree.
  for name in ["feature", "event", "seq", "select", "features", "state"] {
    fuzzCheck(head[name] == request[name], "member '\(name)' differs from the tree's")
    head.withMember(name) { cursor in
      guard let cursor else { return }
      fuzzCheck(cursor.typeName == request[name]?.typeName, "type of '\(name)' differs")
      cursor.forEachMember { key, value in
        fuzzCheck(cursor.member(key.string) != nil, "member '\(key.string)' not found again")
        _ = value.count
      }
    }
  }
}

func checkFailureReply(_ reply: [UInt8], id: RequestID?) {
  fuzzCheck(reply.last == 0x0A, "reply does not end with a line feed")
  let body = reply.dropLast()
  fuzzCheck(!body.contains(0x0A), "reply spans lines")
  guard let json = try? JSONParser().parse(body) else {
    fuzzCheck(false, "reply is not JSON: \(String(decoding: body, as: UTF8.self))")
    return
  }
  fuzzCheck(json["ok"] == .bool(false), "failure reply without ok:false: \(json)")
  fuzzCheck(json["error"]?["code"]?.stringValue != nil, "failure reply without a code: \(json)")
  fuzzCheck(
    json["error"]?["message"]?.stringValue?.isEmpty == false,
    "failure reply without a message: \(json)")
  fuzzCheck(json["id"].flatMap(RequestID.init(json:)) == id, "reply id differs: \(json)")
}

@main
enum FuzzRequestReplay {
  static func main() { FuzzReplay.main(name: "fuzz-request") { checkRequest($0) } }
}
