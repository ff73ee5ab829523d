import Wire

/// Writes the session `statectl monitor --record FILE` sees (PROTOCOL.md, "Recording files"):
/// the header, then each push line as the daemon sent it, one write per line, so that the file
/// is whole up to its last line whenever the recording stops.
struct MonitorRecorder {
  let writer: LineWriter

  func write(_ line: [UInt8]) throws(Failure) {
    do {
      try writer.write(line + [UInt8(ascii: "\n")])
    } catch {
      throw Failure(status: .refused, message: "statectl: " + error.message)
    }
  }
}

extension Conversation {
  /// Starts a recording once `monitor` is on: asks, on the monitoring connection, the protocol
  /// version, and each feature's `describe` and state (every feature's when `features` is
  /// empty), writes the header, and returns the pushes that came meanwhile and follow the
  /// states recorded (a change a state already includes is left out), to be written and shown.
  mutating func startRecording(
    to path: String, features: [String], connection: WireConnection
  ) throws(Failure) -> (MonitorRecorder, [(line: [UInt8], push: JSONObject)]) {
    var pushes: [(line: [UInt8], push: JSONObject)] = []
    // The requests are pipelined: a reply that comes before the one awaited waits here.
    var early: [RequestID: JSONObject] = [:]
    func reply(to id: RequestID, op: String, fields: JSONObject) throws(Failure) -> JSONObject {
      while true {
        let message: JSONObject
        if let waiting = early.removeValue(forKey: id) {
          message = waiting
        } else {
          guard let (line, next) = try nextMessage(connection) else {
            throw Failure(
              status: .connectionFailed,
              message: "statectl: connection closed before the reply to '\(op)'")
          }
          if next["push"] != nil {
            pushes.append((line, next))
            continue
          }
          guard let replyID = next["id"].flatMap(RequestID.init(json:)) else { continue }
          guard replyID == id else {
            early[replyID] = next
            continue
          }
          message = next
        }
        guard message["ok"]?.boolValue == true else {
          let error =
            message["error"].flatMap(WireError.init(json:))
            ?? WireError(.internalError, "request failed")
          throw Self.refusal(error, op: op, fields: fields)
        }
        var result = message
        result["id"] = nil
        result["ok"] = nil
        return result
      }
    }
    let ping = try sendAll(connection, op: Request.Op.ping, [[:]])[0]
    let version = try reply(to: ping, op: Request.Op.ping, fields: [:])["protocol"]?.intValue
    var names = features
    if names.isEmpty {
      let id = try sendAll(connection, op: Request.Op.features, [[:]])[0]
      let listed = try reply(to: id, op: Request.Op.features, fields: [:])
      names = (listed["features"]?.arrayValue ?? []).compactMap {
        $0.stringValue ?? $0["name"]?.stringValue
      }
    }
    let requests = names.map { ["feature": JSON.string($0)] as JSONObject }
    let describeIDs = try sendAll(connection, op: Request.Op.describe, requests)
    let getIDs = try sendAll(connection, op: Request.Op.get, requests)
    var recorded: [Recording.Feature] = []
    for (index, name) in names.enumerated() {
      var describe = try reply(
        to: describeIDs[index], op: Request.Op.describe, fields: requests[index])
      describe["feature"] = nil
      let state = try reply(to: getIDs[index], op: Request.Op.get, fields: requests[index])
      recorded.append(
        Recording.Feature(
          name: name, describe: describe, state: state["state"] ?? .null,
          seq: state["seq"]?.int64Value.map { UInt64(max(0, $0)) } ?? 0))
    }
    let recording = Recording(
      protocolVersion: version, recordedAt: utcTimestamp(), features: recorded)
    let recorder: MonitorRecorder
    do {
      recorder = MonitorRecorder(writer: try LineWriter(creating: path))
    } catch {
      throw Failure(status: .refused, message: "statectl: " + error.message)
    }
    try recorder.write(Array(recording.headerLine().utf8))
    let following = pushes.filter { line, push in
      guard let feature = recording.feature(named: push["feature"]?.stringValue ?? "") else {
        return false
      }
      return Recording.follows(push, start: feature.seq)
    }
    return (recorder, following)
  }
}
