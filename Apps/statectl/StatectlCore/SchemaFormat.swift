import Wire

/// Readable renderings of `features` and `describe` replies.
///
/// Lenient about shapes: a type may be a name (`"integer"`) or an object
/// (`{"type": "integer", "minimum": 0}`), a feature a name or an object with a
/// `"name"`; members it does not know are left out of the text (`--json` shows all).
public enum SchemaFormat {
  /// `features`: one line per feature, its name and summary aligned.
  public static func featureLines(_ reply: JSONObject, width: Int? = nil) -> [String] {
    let list = reply["features"]?.arrayValue ?? []
    if list.isEmpty { return ["(the daemon serves no features)"] }
    let rows: [[String]] = list.map { entry in
      if let name = entry.stringValue { return [name] }
      let name = entry["name"]?.stringValue ?? entry["feature"]?.stringValue ?? entry.description
      var row = [name]
      if let summary = entry["summary"]?.stringValue ?? entry["description"]?.stringValue {
        row.append(summary)
      }
      return row
    }
    return HumanFormat.table(rows, width: width)
  }

  /// `describe`: the feature's summary, a table of events and their fields, the
  /// state's shape, and an example command per event.
  /// `width`: the terminal's, to wrap long descriptions; nil leaves lines whole.
  public static func describeLines(
    _ reply: JSONObject, feature: String, width: Int? = nil
  ) -> [String] {
    let name = reply["feature"]?.stringValue ?? reply["name"]?.stringValue ?? feature
    var lines: [String] = []
    if let summary = reply["summary"]?.stringValue ?? reply["description"]?.stringValue {
      lines.append("\(name): \(summary)")
    } else {
      lines.append(name)
    }

    let events = reply["events"]?.arrayValue ?? []
    lines.append("")
    lines.append("Events:")
    if events.isEmpty {
      lines.append("  (none)")
    } else {
      var rows: [[String]] = [["EVENT", "FIELD", "TYPE", "DESCRIPTION"]]
      for event in events {
        let type = event["type"]?.stringValue ?? event["name"]?.stringValue ?? "?"
        rows.append([type, "", "", summary(event)])
        for field in fieldList(event["fields"]) {
          rows.append(["", field.name, field.type, field.summary])
        }
      }
      lines.append(
        contentsOf: HumanFormat.table(
          rows, indent: "  ", width: width, maxWidths: [nil, nil, typeWidth]))
    }

    let stateFields = fieldList(reply["state_shape"] ?? reply["state"] ?? reply["shape"])
    if !stateFields.isEmpty {
      lines.append("")
      lines.append("State:")
      var rows: [[String]] = [["FIELD", "TYPE", "DESCRIPTION"]]
      rows += stateFields.map { [$0.name, $0.type, $0.summary] }
      lines.append(
        contentsOf: HumanFormat.table(
          rows, indent: "  ", width: width, maxWidths: [nil, typeWidth]))
    }

    if let undo = reply["undo_redo"]?.boolValue ?? reply["undo"]?.boolValue {
      lines.append("")
      lines.append(
        undo ? "Undo/redo: yes (statectl undo \(name))" : "Undo/redo: not supported")
    }

    if !events.isEmpty {
      lines.append("")
      lines.append("Examples:")
      for event in events {
        guard let type = event["type"]?.stringValue ?? event["name"]?.stringValue else { continue }
        var command = "  statectl send \(name) \(type)"
        for field in fieldList(event["fields"]) where field.required {
          command += " " + exampleArgument(field)
        }
        lines.append(command)
      }
    }
    return lines
  }

  /// Longer types (a long list of choices) wrap within this many columns.
  static let typeWidth = 32

  /// One described field.
  struct Field {
    var name: String
    var type: String
    var jsonType: String
    var summary: String
    var required: Bool
  }

  /// Fields from an array of field objects, or from an object of name → type.
  static func fieldList(_ value: JSON?) -> [Field] {
    switch value {
    case .array(let entries)?:
      return entries.compactMap { entry in
        guard let name = entry["name"]?.stringValue else { return nil }
        let type = entry["type"] ?? .null
        // The type is a name with its constraints beside it, or an object of its own.
        let text =
          entry["expects"]?.stringValue
          ?? (type.objectValue != nil ? typeText(type) : typeText(entry))
        let required = entry["required"]?.boolValue ?? (entry["optional"]?.boolValue).map { !$0 }
        return Field(
          name: name, type: text + (required == false ? "?" : ""),
          jsonType: jsonType(of: type), summary: summary(entry), required: required ?? true)
      }
    case .object(let members)?:
      if members["fields"] != nil { return fieldList(members["fields"]) }
      return members.map { name, type in
        Field(
          name: name, type: typeText(type), jsonType: jsonType(of: type),
          summary: summary(type), required: true)
      }
    default:
      return []
    }
  }

  /// `"integer"`, `"integer 0…10"`, `"one of a | b"`, `"array of string"`, `"object"`.
  public static func typeText(_ type: JSON) -> String {
    if let name = type.stringValue { return name }
    guard case .object = type else { return type.description }
    if let expects = type["expects"]?.stringValue { return expects }
    let base = type["type"]?.stringValue ?? "?"
    let choices = type["values"] ?? type["enum"] ?? type["oneOf"]
    if let choices = choices?.arrayValue {
      return "one of " + choices.map(HumanFormat.scalarOrCompact).joined(separator: " | ")
    }
    switch (type["minimum"]?.int64Value, type["maximum"]?.int64Value) {
    case (let low?, let high?): return "\(base) \(low)…\(high)"
    case (let low?, nil): return "\(base) ≥ \(low)"
    case (nil, let high?): return "\(base) ≤ \(high)"
    case (nil, nil): break
    }
    if base == "array", let element = type["items"] ?? type["element"] ?? type["of"] {
      return "array of \(typeText(element))"
    }
    return base
  }

  private static func jsonType(of type: JSON) -> String {
    type.stringValue ?? type["type"]?.stringValue ?? "?"
  }

  private static func summary(_ entry: JSON) -> String {
    entry["summary"]?.stringValue ?? entry["description"]?.stringValue ?? ""
  }

  /// `name=<text>` for strings, `name:=<integer>` for everything else.
  private static func exampleArgument(_ field: Field) -> String {
    switch field.jsonType {
    case "string": "\(field.name)=<\(field.type.hasPrefix("one of") ? "choice" : "text")>"
    default: "\(field.name):=<\(field.jsonType)>"
    }
  }
}
