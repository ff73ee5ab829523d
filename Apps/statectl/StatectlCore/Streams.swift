import Wire

/// Commands that pipeline several requests on one connection (`get A B`, `watch A B`) or read
/// pushes until stopped (`watch`, `monitor`). They read lines themselves, as JSON objects, so
/// that push kinds and members this version does not know pass through (clients must ignore
/// what they do not know).
extension Conversation {
  /// `get A B …`: one request per feature on one connection, a state (or with `select`, the
  /// part of it at that path) per feature. A refused feature is reported on stderr; the others
  /// are still printed (exit status 1).
  mutating func get(features: [String], select: String?) -> ExitStatus {
    do {
      let connection = try connect(timeout: timeout)
      defer { connection.close() }
      let requests = features.map { feature in
        var fields: JSONObject = ["feature": .string(feature)]
        if let select { fields["select"] = .string(select) }
        return fields
      }
      let ids = try sendAll(connection, op: Request.Op.get, requests)
      var status = ExitStatus.success
      for (index, id) in ids.enumerated() {
        let reply: JSONObject
        do {
          reply = try awaitReply(connection, id: id, op: Request.Op.get, fields: requests[index])
        } catch  where error.status == .refused {
          status = report(error)
          continue
        }
        let feature = features[index]
        if json {
          var line: JSONObject = ["feature": .string(feature)]
          for (key, value) in reply where line[key] == nil { line[key] = value }
          console.out(JSON.object(line).serializedString() + "\n")
        } else {
          let shown = reply["state"] ?? reply["value"] ?? .null
          let lines = HumanFormat.stateLines(shown).map { "  " + $0 }
          console.out(([feature + ":"] + lines).joined(separator: "\n") + "\n")
        }
      }
      return status
    } catch {
      return report(error)
    }
  }

  /// Watches `features` on one connection, printing each state (or, with `select`, each new
  /// value of that part of it) until `count` lines were printed or the process is
  /// interrupted (the handlers `willWatch` installs exit with 0).
  mutating func watch(
    features: [String], count: Int?, select: String?, willWatch: () -> Void
  ) -> ExitStatus {
    do {
      // A timeout would end a quiet watch, so only the connection attempt is bounded.
      let connection = try connect(timeout: nil)
      defer { connection.close() }
      willWatch()
      let requests = features.map { feature in
        var fields: JSONObject = ["feature": .string(feature)]
        if let select { fields["select"] = .string(select) }
        return fields
      }
      let ids = try sendAll(connection, op: Request.Op.watch, requests)
      var printer = WatchPrinter(
        console: console, json: json, select: select, showFeature: features.count > 1,
        limit: count)
      for (index, id) in ids.enumerated() {
        let reply = try awaitReply(
          connection, id: id, op: Request.Op.watch, fields: requests[index]
        ) { push in
          printer.push(push)
        }
        printer.reply(reply, feature: features[index])
        if printer.done { return .success }
      }
      while !printer.done {
        guard let message = try nextObject(connection) else {
          throw Failure(
            status: .connectionFailed,
            message: "statectl: the daemon closed the connection; watch ended")
        }
        if message["push"] != nil { printer.push(message) }
      }
      return .success
    } catch {
      return report(error)
    }
  }

  /// Prints every event the daemon concludes in `features` (all when empty) that `filter`
  /// admits, until `count` events were printed or the process is interrupted. `--diff` prints
  /// each event's changes one per line; `--record FILE` also writes the session to FILE
  /// (``MonitorRecorder``), every event, whatever `filter` prints.
  mutating func monitor(
    features: [String], count: Int?, filter: MonitorFilter = MonitorFilter(),
    timeTravel: TimeTravelOptions = TimeTravelOptions(), willWatch: () -> Void
  ) -> ExitStatus {
    do {
      let connection = try connect(timeout: nil)
      defer { connection.close() }
      willWatch()
      let (op, fields) = Self.request(
        for: .monitor(features: features, count: count, filter: filter))
      let id = try sendAll(connection, op: op, [fields])[0]
      _ = try awaitReply(connection, id: id, op: op, fields: fields) { _ in }
      var recorder: MonitorRecorder?
      var pending: [(line: [UInt8], push: JSONObject)] = []
      if let path = timeTravel.record {
        (recorder, pending) = try startRecording(
          to: path, features: features, connection: connection)
      }
      var printed = 0
      while count.map({ printed < $0 }) ?? true {
        let line: [UInt8]
        let message: JSONObject
        if !pending.isEmpty {
          (line, message) = pending.removeFirst()
        } else {
          guard let next = try nextMessage(connection) else {
            throw Failure(
              status: .connectionFailed,
              message: "statectl: the daemon closed the connection; monitor ended")
          }
          (line, message) = next
        }
        guard message["push"]?.stringValue == MonitorFormat.pushKind else { continue }
        if !features.isEmpty,
          !features.contains(message["feature"]?.stringValue ?? "")
        {
          continue
        }
        try recorder?.write(line)
        guard filter.admits(message) else { continue }
        console.out(
          MonitorFormat.line(message, json: json, diff: timeTravel.diff, colour: colour) + "\n")
        printed += 1
      }
      return .success
    } catch {
      return report(error)
    }
  }

  // MARK: Lines

  /// Writes one request per element of `requests`, all at once; returns their ids.
  mutating func sendAll(
    _ connection: WireConnection, op: String, _ requests: [JSONObject]
  ) throws(Failure) -> [RequestID] {
    var bytes: [UInt8] = []
    var ids: [RequestID] = []
    for fields in requests {
      let id = RequestID.number(nextID)
      nextID += 1
      ids.append(id)
      bytes += Request(id: id, op: op, fields: fields).serialized()
    }
    do {
      try connection.sendLine(bytes)
    } catch {
      throw conversationFailure(error, connection, op: op, fields: requests.first ?? [:])
    }
    return ids
  }

  /// The next message as a JSON object; nil when the daemon closed the connection.
  func nextObject(_ connection: WireConnection) throws(Failure) -> JSONObject? {
    try nextMessage(connection)?.object
  }

  /// The next message, as read and as a JSON object; nil when the daemon closed the connection.
  func nextMessage(
    _ connection: WireConnection
  ) throws(Failure) -> (line: [UInt8], object: JSONObject)? {
    let line: [UInt8]?
    do {
      line = try connection.readLine()
    } catch {
      throw Failure(
        status: .connectionFailed, message: Diagnostics.conversation(error, timeout: timeout))
    }
    guard let line else { return nil }
    guard case .object(let object)? = try? JSONParser().parse(line) else {
      throw Failure(
        status: .connectionFailed,
        message: "statectl: malformed message from the daemon: "
          + String(decoding: line.prefix(200), as: UTF8.self)
          + "\nhint: does the daemon speak protocol v\(ProtocolInfo.version)? try: statectl ping")
    }
    return (line, object)
  }

  /// Reads until the reply to `id`, passing pushes that come first to `push`. A failed reply
  /// (or one without an id, which the daemon sends before closing) is a refusal.
  func awaitReply(
    _ connection: WireConnection, id: RequestID, op: String, fields: JSONObject,
    push: (JSONObject) -> Void = { _ in }
  ) throws(Failure) -> JSONObject {
    while true {
      guard let message = try nextObject(connection) else {
        throw Failure(
          status: .connectionFailed,
          message: "statectl: connection closed before the reply to '\(op)'")
      }
      if message["push"] != nil {
        push(message)
        continue
      }
      let replyID = message["id"].flatMap(RequestID.init(json:))
      guard replyID == id || replyID == nil else { continue }
      guard message["ok"]?.boolValue == true else {
        let error =
          message["error"].flatMap(WireError.init(json:))
          ?? WireError(.internalError, "request failed")
        throw Self.refusal(error, op: op, fields: fields)
      }
      var reply = message
      reply["id"] = nil
      reply["ok"] = nil
      return reply
    }
  }
}
