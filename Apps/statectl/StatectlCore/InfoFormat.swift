import Wire

/// `statectl info` on a terminal: the `info` reply's sections as `# section` then `key: value`
/// lines, like `redis-cli INFO`; the features as a table.
///
/// ```
/// # server
/// daemon: 0.1.0
/// uptime_seconds: 42
/// # features
/// FEATURE   SEQ  STATE_BYTES  WATCHERS  MONITORS
/// counter   3    11           0         0
/// ```
enum InfoFormat {
  static func lines(_ reply: JSONObject) -> [String] {
    var lines: [String] = []
    for (name, section) in reply {
      lines.append("# \(name)")
      switch section {
      case .array(let rows) where name == "features":
        lines += featureTable(rows)
      case .object(let members):
        for (key, value) in members {
          lines.append("\(key): " + (value == .null ? "none" : HumanFormat.inline(value)))
        }
      default:
        lines.append(section == .null ? "none" : HumanFormat.value(section))
      }
    }
    return lines
  }

  /// One row per feature, a column per member (in the first feature's order).
  private static func featureTable(_ rows: [JSON]) -> [String] {
    guard let first = rows.first?.objectValue else { return ["none"] }
    let columns = Array(first.keys)
    let header = columns.map { $0 == "name" ? "FEATURE" : $0.uppercased() }
    let cells = rows.map { row in
      columns.map { column in row[column].map(HumanFormat.scalarOrCompact) ?? "" }
    }
    return HumanFormat.table([header] + cells)
  }
}
