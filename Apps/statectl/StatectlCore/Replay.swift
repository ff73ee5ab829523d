import Wire

/// `statectl replay FILE`: brings each recorded feature to its recorded starting state (op
/// `restore`), sends the recorded changes in order, and compares every outcome and state with
/// the recording; stops at the first divergence. See `statectl help replay`.
extension Conversation {
  mutating func replay(file: String, features: [String], skipEffects: Bool) -> ExitStatus {
    do {
      let plan = try ReplayPlan(
        recording: try Self.readRecording(file), features: features, file: file)
      let connection = try connect(timeout: timeout)
      defer { connection.close() }
      let served = try call(connection, op: Request.Op.features, fields: [:])
      let names = (served.fields["features"]?.arrayValue ?? []).compactMap {
        $0.stringValue ?? $0["name"]?.stringValue
      }
      if let missing = plan.features.first(where: { !names.contains($0.name) }) {
        throw Failure(
          status: .refused,
          message:
            "statectl: the daemon does not serve '\(missing.name)', recorded in \(file); nothing was sent\nhint: the daemon serves \(names.joined(separator: ", "))"
        )
      }
      var run = ReplayRun(plan: plan, skipEffects: skipEffects)
      for feature in plan.features {
        let reply = try call(
          connection, op: ReplayRun.restoreOp,
          fields: ["feature": .string(feature.name), "state": feature.state])
        if let state = reply.fields["state"], state != feature.state {
          run.divergence = ReplayRun.Divergence(
            entry: nil, feature: feature.name, what: "the recorded starting state",
            expectedOutcome: nil, actualOutcome: nil, expected: feature.state, actual: state)
          break
        }
      }
      if run.divergence == nil {
        for step in plan.steps {
          try run.perform(step) { op, fields throws(Failure) in
            try self.exchange(connection, op: op, fields: fields)
          }
          if run.divergence != nil { break }
        }
      }
      console.out(run.report(file: file, json: json, colour: colour) + "\n")
      return run.divergence == nil ? .success : .refused
    } catch {
      return report(error)
    }
  }

  /// A recording read from `file`; a problem is a usage error (nothing is sent).
  static func readRecording(_ file: String) throws(Failure) -> Recording {
    do {
      return try Recording(contentsOf: file)
    } catch {
      throw Failure(status: .usage, message: "statectl: " + error.message)
    }
  }

  /// Sends one request and returns its reply whether it succeeded or not; a failed one is a
  /// refusal only when it is not an event's failure (which the replay compares).
  mutating func exchange(
    _ connection: WireConnection, op: String, fields: JSONObject
  ) throws(Failure) -> ReplyMessage {
    let id = RequestID.number(nextID)
    nextID += 1
    do {
      return try connection.call(Request(id: id, op: op, fields: fields))
    } catch {
      throw conversationFailure(error, connection, op: op, fields: fields)
    }
  }
}

/// What a replay does, checked before anything is sent: the features, in the recording's
/// order, and their steps.
struct ReplayPlan {
  let features: [Recording.Feature]
  let steps: [Recording.Entry]
  /// Event types whose result depends on the outside world, by feature (the `describe` of the
  /// recording marks them `"effects": true`).
  let effectful: [String: Set<String>]

  init(recording: Recording, features selected: [String], file: String) throws(Failure) {
    for name in selected where recording.feature(named: name) == nil {
      throw Failure(
        status: .usage,
        message:
          "statectl: feature '\(name)' is not in \(file); recorded: \(recording.features.map(\.name).joined(separator: ", "))"
      )
    }
    features = recording.features.filter { selected.isEmpty || selected.contains($0.name) }
    let names = Set(features.map(\.name))
    steps = recording.entries.filter { names.contains($0.feature) }
    if let gap = steps.first(where: { $0.push["missed"] != nil }) {
      throw Failure(
        status: .usage,
        message:
          "statectl: \(file): line \(gap.line): the recording missed \(gap.push["missed"].map(HumanFormat.scalarOrCompact) ?? "some") events (its reader was too slow), so it cannot be replayed; nothing was sent"
      )
    }
    var effectful: [String: Set<String>] = [:]
    for feature in features {
      for event in feature.describe["events"]?.arrayValue ?? []
      where event["effects"]?.boolValue == true {
        if let type = event["type"]?.stringValue {
          effectful[feature.name, default: []].insert(type)
        }
      }
    }
    self.effectful = effectful
  }

  func isEffectful(_ entry: Recording.Entry) -> Bool {
    guard entry.cause == "event", let type = entry.push["event"]?["type"]?.stringValue else {
      return false
    }
    return effectful[entry.feature]?.contains(type) == true
  }
}

/// A replay in progress: what was done, and the first divergence.
struct ReplayRun {
  static let restoreOp = "restore"

  struct Divergence {
    /// The recorded change that diverged; nil for the starting state.
    var entry: Recording.Entry?
    var feature: String
    var what: String
    var expectedOutcome: String?
    var actualOutcome: String?
    var expected: JSON
    var actual: JSON
    /// The daemon's error, when it refused or the event failed.
    var error: JSON?
  }

  let plan: ReplayPlan
  let skipEffects: Bool
  var replayed = 0
  /// Effectful events compared on outcome and shape (or skipped), and events not sent.
  var shapeOnly: [Recording.Entry] = []
  var skipped: [Recording.Entry] = []
  var notSent: [Recording.Entry] = []
  var divergence: Divergence?

  init(plan: ReplayPlan, skipEffects: Bool) {
    self.plan = plan
    self.skipEffects = skipEffects
  }

  /// Sends one recorded change with `send` and compares what the daemon answers.
  mutating func perform(
    _ entry: Recording.Entry,
    send: (String, JSONObject) throws(Failure) -> ReplyMessage
  ) throws(Failure) {
    let feature: JSONObject = ["feature": .string(entry.feature)]
    let expected = entry.after ?? .null
    let label = TransitionFormat.label(entry.push)
    switch entry.cause {
    case "event":
      if entry.outcome == "dropped" || entry.outcome == "cancelled" {
        notSent.append(entry)
        return
      }
      let effectful = plan.isEffectful(entry)
      if effectful && skipEffects {
        skipped.append(entry)
        try restore(entry, to: expected, send: send)
        return
      }
      var fields = feature
      fields["event"] = entry.push["event"] ?? [:]
      let reply = try send(Request.Op.send, fields)
      let outcome = reply.fields["outcome"]?.stringValue ?? (reply.ok ? "handled" : "refused")
      let state = reply.fields["state"] ?? .null
      let errorJSON = reply.error.map {
        JSON.object(["code": .string($0.code.rawValue), "message": .string($0.message)])
      }
      if reply.fields["outcome"] == nil && !reply.ok {
        // Refused before it reached the feature (a bad field, an unknown event).
        divergence = Divergence(
          entry: entry, feature: entry.feature, what: label, expectedOutcome: entry.outcome,
          actualOutcome: "refused", expected: expected, actual: state, error: errorJSON)
        return
      }
      let matches =
        effectful ? Self.shape(of: state) == Self.shape(of: expected) : state == expected
      if outcome != entry.outcome || !matches {
        divergence = Divergence(
          entry: entry, feature: entry.feature, what: label, expectedOutcome: entry.outcome,
          actualOutcome: outcome, expected: expected, actual: state, error: errorJSON)
        return
      }
      replayed += 1
      if effectful {
        shapeOnly.append(entry)
        // What follows compares exactly: from the recorded state.
        if state != expected { try restore(entry, to: expected, send: send) }
      }
    case "undo", "redo":
      let reply = try send(entry.cause, feature)
      try compare(entry, reply, label: label)
    default:
      // goto, restore, migration: the recorded state, set as a change.
      var fields = feature
      fields["state"] = expected
      let reply = try send(Self.restoreOp, fields)
      try compare(entry, reply, label: label)
    }
  }

  private mutating func restore(
    _ entry: Recording.Entry, to state: JSON,
    send: (String, JSONObject) throws(Failure) -> ReplyMessage
  ) throws(Failure) {
    let reply = try send(Self.restoreOp, ["feature": .string(entry.feature), "state": state])
    if !reply.ok, let error = reply.error, error.code.rawValue != "not_supported" {
      throw Conversation.refusal(
        error, op: Self.restoreOp, fields: ["feature": .string(entry.feature)])
    }
  }

  private mutating func compare(
    _ entry: Recording.Entry, _ reply: ReplyMessage, label: String
  ) throws(Failure) {
    let state = reply.fields["state"] ?? .null
    let expected = entry.after ?? .null
    guard reply.ok, state == expected else {
      divergence = Divergence(
        entry: entry, feature: entry.feature, what: label, expectedOutcome: nil,
        actualOutcome: reply.ok ? nil : "refused", expected: expected, actual: state,
        error: reply.error.map {
          .object(["code": .string($0.code.rawValue), "message": .string($0.message)])
        })
      return
    }
    replayed += 1
  }

  /// A value's shape: its members' names and the JSON types of its values, not the values;
  /// an array is an array whatever it holds.
  static func shape(of value: JSON) -> JSON {
    switch value {
    case .object(let object):
      return .object(JSONObject(object.map { ($0.key, shape(of: $0.value)) }))
    case .array: return "array"
    default: return .string(value.typeName)
    }
  }

  // MARK: Report

  func report(file: String, json: Bool, colour: Bool) -> String {
    func described(_ entries: [Recording.Entry]) -> [JSON] {
      entries.map { entry in
        var object: JSONObject = ["feature": .string(entry.feature)]
        if let seq = entry.seq { object["seq"] = .integer(Int64(seq)) }
        object["line"] = JSON(entry.line)
        if let event = entry.push["event"] { object["event"] = event }
        return .object(object)
      }
    }
    if json {
      var report: JSONObject = [
        "ok": .bool(divergence == nil), "file": .string(file),
        "features": .array(plan.features.map { .string($0.name) }),
        "replayed": JSON(replayed),
        "compared_on_shape": .array(described(shapeOnly)),
        "skipped_effects": .array(described(skipped)),
        "not_sent": .array(described(notSent)),
      ]
      if let divergence {
        var object: JSONObject = ["feature": .string(divergence.feature)]
        if let entry = divergence.entry {
          if let seq = entry.seq { object["seq"] = .integer(Int64(seq)) }
          object["line"] = JSON(entry.line)
          object["cause"] = .string(entry.cause)
          if let event = entry.push["event"] { object["event"] = event }
        }
        object["expected"] = .object(
          [
            "outcome": divergence.expectedOutcome.map(JSON.string) ?? .null,
            "state": divergence.expected,
          ])
        object["actual"] = .object(
          [
            "outcome": divergence.actualOutcome.map(JSON.string) ?? .null,
            "state": divergence.actual,
          ])
        if let error = divergence.error { object["error"] = error }
        object["changes"] = StateDiff.json(
          StateDiff.changes(from: divergence.expected, to: divergence.actual))
        report["divergence"] = .object(object)
      }
      return JSON.object(report).serializedString()
    }
    var lines: [String] = []
    let names = plan.features.map(\.name).joined(separator: ", ")
    func list(_ title: String, _ entries: [Recording.Entry]) {
      guard !entries.isEmpty else { return }
      lines.append(title)
      for entry in entries {
        let seq = entry.seq.map { "seq \($0)" } ?? "line \(entry.line)"
        lines.append("  \(seq) \(entry.feature) \(TransitionFormat.label(entry.push))")
      }
    }
    if let divergence {
      if let entry = divergence.entry {
        let seq = entry.seq.map { "seq \($0)" } ?? "?"
        lines.append(
          "replay of \(file) diverged at \(seq) (line \(entry.line)): \(divergence.feature) \(divergence.what)"
        )
      } else {
        lines.append(
          "replay of \(file) diverged at the start: \(divergence.feature) could not be set to \(divergence.what)"
        )
      }
      if divergence.expectedOutcome != nil || divergence.actualOutcome != nil,
        divergence.expectedOutcome != divergence.actualOutcome
      {
        var actual = divergence.actualOutcome ?? "?"
        if let error = divergence.error {
          actual +=
            " (\(error["code"]?.stringValue ?? "error"): \(error["message"]?.stringValue ?? ""))"
        }
        lines.append("  expected outcome \(divergence.expectedOutcome ?? "?"), got \(actual)")
      }
      let changes = StateDiff.changes(from: divergence.expected, to: divergence.actual)
      if changes.isEmpty {
        lines.append("  the state is as recorded: \(HumanFormat.inline(divergence.expected))")
      } else {
        lines.append("  the state differs (expected → actual):")
        lines += StateDiff.lines(of: changes, colour: colour).map { "    " + $0 }
      }
      lines.append("  after \(replayed) changes that matched")
    } else {
      lines.append(
        "replayed \(replayed) changes of \(names) from \(file): every outcome and state matches")
    }
    list(
      "compared on outcome and shape only (their result depends on the outside world):", shapeOnly)
    list("skipped (--skip-effects; their recorded state was restored):", skipped)
    list("not sent (dropped or cancelled when recorded, which depends on timing):", notSent)
    return lines.joined(separator: "\n")
  }
}
