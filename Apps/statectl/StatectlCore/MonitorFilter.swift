import Wire

/// `monitor --event TYPE --outcome OUTCOME`: which concluded events to print, beside the
/// features asked for. Each option may be given several times (any of them matches); an empty
/// list lets every event through. Filtered in statectl: the daemon pushes every event of the
/// monitored features.
///
/// ```swift
/// MonitorFilter(events: ["set"], outcomes: ["failed"]).admits(push)  // a failed `set` only
/// ```
public struct MonitorFilter: Equatable, Sendable {
  /// Event types (`"type"` of the pushed event).
  public var events: [String]
  /// Outcomes: handled, dropped, cancelled or failed.
  public var outcomes: [String]

  /// The outcomes a monitor push can carry (PROTOCOL.md, `send`).
  public static let outcomes = ["handled", "dropped", "cancelled", "failed"]

  public init(events: [String] = [], outcomes: [String] = []) {
    self.events = events
    self.outcomes = outcomes
  }

  public var isEmpty: Bool { events.isEmpty && outcomes.isEmpty }

  /// Whether an event push passes both lists.
  public func admits(_ push: JSONObject) -> Bool {
    let type = push["event"]?["type"]?.stringValue ?? ""
    let outcome = push["outcome"]?.stringValue ?? ""
    return (events.isEmpty || events.contains(type))
      && (outcomes.isEmpty || outcomes.contains(outcome))
  }
}
