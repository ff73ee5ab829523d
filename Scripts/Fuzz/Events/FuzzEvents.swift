import FuzzDaemon
import FuzzSupport
import StateServer
import Wire

/// Fuzzes each feature's event decoding the way the daemon reaches it: the input, a `send`
/// request line such as `{"op":"send","feature":"counter","event":{"type":"set","value":3}}`
/// (see Scripts/Fuzz/Seeds/events), goes to `stated`'s own server and dispatcher
/// (``FuzzDaemon``) over a Unix socket, and an accepted event runs in the real bloc to its
/// outcome before the reply comes. Checked: the line gets exactly one reply; a refused event
/// is refused with `unknown_event`, `missing_field` or `invalid_field` and a message, and
/// changes no state; an accepted one is answered with its outcome; nothing crashes or hangs.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEvents(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  checkEvent(UnsafeRawBufferPointer(start: data, count: size))
  return 0
}

func checkEvent(_ input: UnsafeRawBufferPointer) {
  guard !input.contains(0x0A) else { return }  // one request line
  // A blank line (after a CR is dropped) gets no reply, an oversized one is fuzz-request's.
  var framer = LineFramer()
  framer.append(contentsOf: Array(input) + [0x0A])
  guard case .frame = framer.next() else { return }
  let daemon = FuzzDaemon.shared
  // The feature the daemon will hand the event to, read as the daemon reads the request.
  let request = try? RequestHead(reading: input)
  let feature = (request?.op == Request.Op.send ? request?["feature"]?.stringValue : nil)
    .flatMap(daemon.registry.feature(named:))
  let before = try? feature?.storedSnapshot()

  let lines = (Array(input) + [0x0A]).withUnsafeBytes { daemon.exchange($0) }
  guard lines.count == 1, let reply = try? JSONParser().parse(lines[0]) else {
    fuzzCheck(false, "one request line, \(lines.count) line(s) back")
    return
  }
  guard let feature else { return }
  if reply["ok"] == .bool(true) {
    fuzzCheck(reply["outcome"]?.stringValue != nil, "a send answered without its outcome: \(reply)")
    return
  }
  let code = reply["error"]?["code"]?.stringValue.map(ErrorCode.init(rawValue:))
  guard code != .eventFailed else { return }  // the feature refused it as it handled it
  let refusals: Set<ErrorCode> = [.unknownEvent, .missingField, .invalidField]
  fuzzCheck(code.map(refusals.contains) == true, "a send to \(feature.name) refused with \(reply)")
  fuzzCheck(reply["error"]?["message"]?.stringValue?.isEmpty == false, "refusal without a message")
  fuzzCheck(
    before == (try? feature.storedSnapshot()), "a refused event changed \(feature.name)'s state")
}

@main
enum FuzzEventsReplay {
  static func main() { FuzzReplay.main(name: "fuzz-events") { checkEvent($0) } }
}
