import FuzzDaemon
import FuzzSupport
import Wire

/// Fuzzes what the daemon does with the bytes a client sends: the input goes to `stated`'s own
/// server and dispatcher (``FuzzDaemon``: its event loop's framing, the dispatcher's request
/// reader and every op on the daemon's features) over a Unix socket, as one connection's whole
/// input (its last line ended by a newline). Checked:
///
/// - the daemon answers every request line (framed as the daemon frames them, with Wire's
///   `LineFramer`) with exactly one reply, in order, and then closes; pushes (after a `watch` or
///   `monitor`) may come between replies;
/// - every line it writes is one JSON object: a reply (`"ok"`) or a push (`"push"`);
/// - a reply carries the request's `id` whenever the request could be read that far;
/// - a refusal is `{"ok":false,"error":{"code":…,"message":…}}` with a documented code, never
///   `internal_error` (the built-in features' states always encode).
///
/// Each line is also read in-process the way the daemon reads it (``readFrame(_:)``), and that
/// reading is checked against a parsed tree.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  checkRequest(UnsafeRawBufferPointer(start: data, count: size))
  return 0
}

let documentedCodes: Set<ErrorCode> = [
  .parseError, .invalidUTF8, .notAnObject, .missingField, .invalidField, .unknownOp,
  .unknownFeature, .unknownEvent, .eventFailed, .notSupported,
]

func checkRequest(_ input: UnsafeRawBufferPointer) {
  // The input is the connection's whole input, as lines: its last line is ended too.
  let sent = Array(input) + [0x0A]
  var framer = LineFramer()
  framer.append(contentsOf: sent)
  var ids: [RequestID?] = []
  while let event = framer.next() {
    guard case .frame(let frame) = event else { return }  // an oversized line: not fuzzed here
    ids.append(frame.withUnsafeBytes(readFrame))
  }

  let lines = sent.withUnsafeBytes { FuzzDaemon.shared.exchange($0) }
  var replies: [JSON] = []
  for line in lines {
    guard let message = try? JSONParser().parse(line), case .object = message else {
      fuzzCheck(false, "the daemon wrote a line that is not a JSON object: \(text(line))")
      return
    }
    if message["push"] != nil { continue }
    fuzzCheck(message["ok"]?.boolValue != nil, "a line neither reply nor push: \(text(line))")
    replies.append(message)
  }
  fuzzCheck(
    replies.count == ids.count,
    "\(ids.count) request line(s), \(replies.count) reply/replies: \(text(Array(input)))")
  for (id, reply) in zip(ids, replies) {
    fuzzCheck(
      reply["id"].flatMap(RequestID.init(json:)) == id,
      "reply id differs from the request's (\(String(describing: id))): \(reply)")
    guard reply["ok"] == .bool(false) else { continue }
    let code = reply["error"]?["code"]?.stringValue.map(ErrorCode.init(rawValue:))
    fuzzCheck(code.map(documentedCodes.contains) == true, "refused with \(reply)")
    fuzzCheck(
      reply["error"]?["message"]?.stringValue?.isEmpty == false,
      "refusal without a message: \(reply)")
  }
}

/// Reads one frame as the daemon reads it (`RequestHead(reading:)`: the whole frame checked by
/// `JSONCursor`, then `id` and `op` from its bytes) and returns the id its reply must carry.
/// Checked against the tree (`Request(parsing:)`):
///
/// - a frame that reads serializes (`serialized()`) to one line that reads to an equal request;
/// - a member read from the bytes (`withMember`) is the same value as in the parsed tree, and
///   so is the usual event's `type` the head notes (`withEvent`);
/// - a refusal is a reply the protocol allows: one line of JSON,
///   `{"ok":false,"error":{"code":…,"message":…}}`, carrying the request's id when it could
///   be read.
func readFrame(_ frame: UnsafeRawBufferPointer) -> RequestID? {
  let head: RequestHead
  do {
    head = try RequestHead(reading: frame)
  } catch {
    checkFailureReply(error.reply, id: error.id)
    return error.id
  }
  let request: Request
  do {
    request = try Request(parsing: frame)
  } catch {
    fuzzCheck(false, "RequestHead read the frame but Request refused it: \(error)")
    return nil
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
        return true
      }
    }
  }
  // The usual event's `type`, noted by the head's one pass: only for an event that is that
  // member alone, a string, in the tree too.
  head.withEvent { _, soleType in
    guard let soleType else { return }
    let type = String(decoding: soleType, as: UTF8.self)
    fuzzCheck(request["event"] == ["type": .string(type)], "event type noted as '\(type)'")
  }
  return head.id
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

func text(_ bytes: [UInt8]) -> String {
  String(decoding: bytes.prefix(300), as: UTF8.self)
}

@main
enum FuzzRequestReplay {
  static func main() { FuzzReplay.main(name: "fuzz-request") { checkRequest($0) } }
}
