import Wire

/// How a change is named on a terminal, by `monitor`, `history` and `replay`: the event with
/// its fields (`set (value: 5)`), or what else made it (`undo`, `redo`, `goto 42`, `restore`,
/// `migration`).
enum TransitionFormat {
  /// `increment`, `set (value: 5)`, `undo`, `goto 42`; from a push or a history transition.
  static func label(_ change: JSONObject) -> String {
    let cause = change["cause"]?.stringValue ?? "event"
    guard cause == "event" else {
      let target = change["target"].map { " " + HumanFormat.scalarOrCompact($0) } ?? ""
      return cause + target
    }
    return event(change["event"]?.objectValue ?? [:])
  }

  /// An event: its type, then its other fields in parentheses.
  static func event(_ event: JSONObject) -> String {
    var fields = event
    let type = fields["type"].map(HumanFormat.scalarOrCompact) ?? "?"
    fields["type"] = nil
    return type + (fields.isEmpty ? "" : " (" + HumanFormat.inline(.object(fields)) + ")")
  }

  /// A history time for a terminal: `2026-12-01 19:20:01.123` (the daemon's RFC 3339 UTC).
  static func time(_ value: JSON?) -> String {
    guard let text = value?.stringValue else { return "" }
    var shown = text.replacingFirst("T", with: " ")
    if shown.hasSuffix("Z") { shown.removeLast() }
    return shown
  }

  /// The lines of `statectl history` on a terminal: a heading, then per transition
  /// `seq  time  what` and its changes from the state before, one per line, indented.
  /// `before`: the state before the first transition shown, when known.
  static func historyLines(
    _ transitions: [JSONObject], before: JSON?, feature: String, oldest: JSON?, colour: Bool
  ) -> [String] {
    var lines: [String] = []
    var previous = before
    let seqWidth =
      transitions.map { ($0["seq"].map(HumanFormat.scalarOrCompact) ?? "").count }
      .max() ?? 1
    for transition in transitions {
      let seq = transition["seq"].map(HumanFormat.scalarOrCompact) ?? "?"
      let padding = String(repeating: " ", count: max(0, seqWidth - seq.count))
      lines.append(
        "\(padding)\(seq)  \(time(transition["time"]))  \(label(transition))")
      let state = transition["state"] ?? .null
      let indent = String(repeating: " ", count: seqWidth + 2) + "  "
      if let previous {
        let changes = StateDiff.lines(
          of: StateDiff.changes(from: previous, to: state), colour: colour)
        lines += (changes.isEmpty ? ["(no change)"] : changes).map { indent + $0 }
      } else {
        lines.append(indent + "= " + HumanFormat.inline(state))
      }
      previous = state
    }
    if transitions.isEmpty {
      lines.append("no transitions of '\(feature)' in that range")
    }
    if let oldest {
      lines.append(
        "(oldest seq retained for '\(feature)': \(HumanFormat.scalarOrCompact(oldest)))")
    }
    return lines
  }
}

extension String {
  /// The text with the first `target` replaced.
  fileprivate func replacingFirst(_ target: Character, with replacement: String) -> String {
    guard let index = firstIndex(of: target) else { return self }
    return String(self[..<index]) + replacement + String(self[self.index(after: index)...])
  }
}
