import Wire

/// `statectl history FEATURE [--last N | --since SEQ]`: the feature's recorded transitions
/// (op `history`), oldest first. On a terminal each shows what changed from the one before;
/// piped or with `--json`, each is one line as the daemon sent it, with `"feature"`.
extension Conversation {
  static let historyOp = "history"
  /// How many transitions the daemon sends when neither `last` nor `since` is given.
  static let defaultHistoryCount = 100

  static func historyFields(feature: String, last: Int?, since: UInt64?) -> JSONObject {
    var fields: JSONObject = ["feature": .string(feature)]
    if let last { fields["last"] = JSON(last) }
    if let since { fields["since"] = .integer(Int64(since)) }
    return fields
  }

  mutating func history(feature: String, last: Int?, since: UInt64?) -> ExitStatus {
    do {
      let connection = try connect(timeout: timeout)
      defer { connection.close() }
      guard !json else {
        let reply = try call(
          connection, op: Self.historyOp,
          fields: Self.historyFields(feature: feature, last: last, since: since))
        for case .object(let transition) in reply.fields["transitions"]?.arrayValue ?? [] {
          var line: JSONObject = ["feature": .string(feature)]
          for (key, value) in transition where line[key] == nil { line[key] = value }
          console.out(JSON.object(line).serializedString() + "\n")
        }
        return .success
      }
      // One transition more than shown is asked for, so that the first one shown has a state
      // to be compared with.
      let shown = last ?? (since == nil ? Self.defaultHistoryCount : nil)
      var reply: ReplyMessage
      do {
        reply = try call(
          connection, op: Self.historyOp,
          fields: Self.historyFields(
            feature: feature, last: shown.map { $0 + 1 },
            since: since.map { $0 > 0 ? $0 - 1 : 0 }))
      } catch  where error.refusal?.code == .invalidField && shown != nil {
        // One more than the retention limit: ask for what was asked.
        reply = try call(
          connection, op: Self.historyOp,
          fields: Self.historyFields(feature: feature, last: last, since: since))
      }
      var transitions = (reply.fields["transitions"]?.arrayValue ?? []).compactMap(\.objectValue)
      var before: JSON?
      let extra: Bool
      if let shown {
        extra = transitions.count > shown
      } else if let since, let first = transitions.first?["seq"]?.int64Value {
        extra = first < Int64(clamping: since)
      } else {
        extra = false
      }
      if extra {
        before = transitions.removeFirst()["state"]
      }
      let lines = TransitionFormat.historyLines(
        transitions, before: before, feature: feature, oldest: reply.fields["oldest"],
        colour: colour)
      console.out(lines.joined(separator: "\n") + "\n")
      return .success
    } catch {
      return report(error)
    }
  }
}
