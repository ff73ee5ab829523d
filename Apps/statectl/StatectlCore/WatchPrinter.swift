import Wire

/// Prints the states of a watch of one or more features, as JSON lines or text, and counts
/// them for `--count`.
///
/// With `--select PATH` it prints the selected value instead of the state, only when it
/// changed. A daemon that selects sends `"value"`; from one that does not (it ignores the
/// unknown `"select"` member and sends whole states) the value is selected here, so the output
/// is the same either way.
struct WatchPrinter {
  let console: any Console
  let json: Bool
  let select: String?
  /// Several features are watched: text lines name theirs.
  let showFeature: Bool
  let limit: Int?
  private(set) var printed = 0
  /// The last selected value printed per feature, to skip repeats.
  private var lastValue: [String: JSON] = [:]
  /// Features whose watch reply arrived: their pushes are printed.
  private var watching: Set<String> = []

  init(console: any Console, json: Bool, select: String?, showFeature: Bool, limit: Int?) {
    self.console = console
    self.json = json
    self.select = select
    self.showFeature = showFeature
    self.limit = limit
  }

  var done: Bool { limit.map { printed >= $0 } ?? false }

  /// The reply to a watch request: the feature's current state.
  mutating func reply(_ reply: JSONObject, feature: String) {
    watching.insert(feature)
    print(feature: feature, sequence: reply["seq"]?.intValue, message: reply, extra: [:])
  }

  /// A push: printed when it is a state of a watched feature.
  mutating func push(_ push: JSONObject) {
    guard !done, push["push"]?.stringValue == Push.stateKind,
      let feature = push["feature"]?.stringValue, watching.contains(feature)
    else { return }
    var extra = JSONObject()
    for (key, value) in push
    where !["push", "feature", "seq", "state", "select", "value"].contains(key) {
      extra[key] = value
    }
    print(feature: feature, sequence: push["seq"]?.intValue, message: push, extra: extra)
  }

  private mutating func print(
    feature: String, sequence: Int?, message: JSONObject, extra: JSONObject
  ) {
    guard !done else { return }
    var line: JSONObject = ["feature": .string(feature)]
    if let sequence { line["seq"] = JSON(sequence) }
    let shown: JSON
    if let select {
      let value = message["value"] ?? Self.selecting(select, in: message["state"] ?? .null)
      if lastValue[feature] == value { return }
      lastValue[feature] = value
      line["select"] = .string(select)
      line["value"] = value
      shown = value
    } else {
      shown = message["state"] ?? .null
      line["state"] = shown
    }
    if json {
      for (key, value) in extra where line[key] == nil { line[key] = value }
      console.out(JSON.object(line).serializedString() + "\n")
    } else {
      let name = showFeature ? feature + " " : ""
      let prefix = sequence.map { "[\($0)] " } ?? ""
      console.out(name + prefix + HumanFormat.inline(shown) + "\n")
    }
    printed += 1
  }

  /// The member at `path` (names separated by `.`) of `state`; null where there is none.
  ///
  /// ```swift
  /// WatchPrinter.selecting("a.b", in: ["a": ["b": 1]])  // 1
  /// ```
  static func selecting(_ path: String, in state: JSON) -> JSON {
    var value = state
    for name in path.split(separator: ".") {
      guard let member = value[String(name)] else { return .null }
      value = member
    }
    return value
  }
}

/// The lines of `statectl monitor`: one per event a feature concluded.
enum MonitorFormat {
  /// The push kind the daemon sends for a concluded event.
  static let pushKind = "event"

  /// JSON: the push without its `"push"` member (with `diff`, plus `"changes"`, as
  /// ``StateDiff/json(_:)`` writes them). Text: `[5] counter increment: handled; count: 4 → 5`,
  /// or with `diff` the changes below, one per line (coloured when `colour`). A change not made
  /// by an event is named by its cause: `[6] counter undo: handled; count: 5 → 4`.
  static func line(
    _ push: JSONObject, json: Bool, diff: Bool = false, colour: Bool = false
  )
    -> String
  {
    let before = push["before"]
    let after = push["after"]
    if json {
      var line = push
      line["push"] = nil
      if diff, let before, let after {
        line["changes"] = StateDiff.json(StateDiff.changes(from: before, to: after))
      }
      return JSON.object(line).serializedString()
    }
    let feature = push["feature"]?.stringValue ?? "?"
    let label = TransitionFormat.label(push)
    let outcome = push["outcome"].map(HumanFormat.scalarOrCompact) ?? "?"
    // A reader too slow for the daemon's buffer is told how many events it did not get.
    let missed = push["missed"]?.intValue.map { "(\($0) events missed) " } ?? ""
    var text =
      missed + (push["seq"]?.intValue.map { "[\($0)] " } ?? "") + "\(feature) \(label): "
    text += outcome
    if let error = push["error"] {
      let code = error["code"]?.stringValue ?? "error"
      text += " (\(code): \(error["message"]?.stringValue ?? ""))"
    }
    if diff, let before, let after {
      let changes = StateDiff.changes(from: before, to: after)
      if changes.isEmpty { return text + "; unchanged" }
      return ([text] + StateDiff.lines(of: changes, colour: colour).map { "  " + $0 })
        .joined(separator: "\n")
    }
    if let after {
      if let before, before != after {
        text += "; " + change(from: before, to: after)
      } else {
        text += "; unchanged: \(HumanFormat.inline(after))"
      }
    }
    return text
  }

  /// `count: 4 → 5`: for objects only the members that changed, else the whole values.
  static func change(from before: JSON, to after: JSON) -> String {
    guard case .object(let old) = before, case .object(let new) = after else {
      return "\(HumanFormat.inline(before)) → \(HumanFormat.inline(after))"
    }
    var keys = new.keys.filter { old[$0] != new[$0] }
    keys += old.keys.filter { new[$0] == nil }
    return keys.map { key in
      let from = old[key].map(HumanFormat.scalarOrCompact) ?? "(none)"
      let to = new[key].map(HumanFormat.scalarOrCompact) ?? "(none)"
      return "\(key): \(from) → \(to)"
    }.joined(separator: ", ")
  }
}
