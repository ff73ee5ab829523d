import FuzzSupport
import Wire

/// Fuzzes request parsing (`Request(parsing:)`, as the daemon reads every frame) and the field
/// accessors its ops use. Checked:
///
/// - a frame that parses serializes (`serialized()`) to one line that parses to an equal request;
/// - every refusal, from the parser or from an accessor, is a reply the protocol allows: one
///   line of JSON, `{"ok":false,"error":{"code":…,"message":…}}`, carrying the request's id
///   when it could be read.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  checkRequest(UnsafeRawBufferPointer(start: data, count: size))
  return 0
}

func checkRequest(_ frame: UnsafeRawBufferPointer) {
  let request: Request
  do {
    request = try Request(parsing: frame)
  } catch {
    checkFailureReply(error.reply, id: error.id)
    return
  }

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

  // The accessors the ops use: each either answers or refuses with a valid reply.
  refusal(request) { request throws(WireError) in _ = try request.string("feature") }
  refusal(request) { request throws(WireError) in _ = try request.event() }
  refusal(request) { request throws(WireError) in _ = try request.int("seq") }
  refusal(request) { request throws(WireError) in _ = try request.bool("flag") }
  refusal(request) { request throws(WireError) in _ = try request.object("event") }
}

func refusal(_ request: Request, _ access: (Request) throws(WireError) -> Void) {
  do {
    try access(request)
  } catch {
    checkFailureReply(Reply.failure(id: request.id, error), id: request.id)
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
