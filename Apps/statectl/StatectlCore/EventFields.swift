import Wire

/// Event fields from the command line, following httpie's convention:
/// `name=text` sends a JSON string, `name:=json` sends raw JSON (numbers,
/// booleans, null, arrays, objects).
///
/// ```swift
/// try EventFields.parse(["label=hello", "by:=2", "tags:=[\"a\"]"])
/// // ["label": "hello", "by": 2, "tags": ["a"]]
/// ```
///
/// The name ends at the first `=` (a `:` just before it makes the value raw JSON),
/// so a text value may itself contain `=`: `expr=a=b` sends `"a=b"`.
public enum EventFields {
  public static func parse(
    _ arguments: some Sequence<String>
  ) throws(CommandLineError) -> JSONObject {
    var fields = JSONObject()
    for argument in arguments {
      let (name, value) = try field(argument)
      if fields[name] != nil {
        throw CommandLineError("field '\(name)' is given twice", command: .send)
      }
      fields[name] = value
    }
    return fields
  }

  /// One `name=text` or `name:=json` argument.
  public static func field(
    _ argument: String
  ) throws(CommandLineError) -> (name: String, value: JSON) {
    guard let equals = argument.firstIndex(of: "=") else {
      throw CommandLineError(
        "expected field=text or field:=json, got '\(argument)'", command: .send)
    }
    var name = argument[..<equals]
    let value = String(argument[argument.index(after: equals)...])
    let raw = name.last == ":"
    if raw { name = name.dropLast() }
    guard !name.isEmpty else {
      throw CommandLineError("missing field name in '\(argument)'", command: .send)
    }
    guard name != "type" else {
      throw CommandLineError(
        "'type' is the event's name (the EVENT argument), not a field: '\(argument)'",
        command: .send)
    }
    guard raw else { return (String(name), .string(value)) }
    do {
      return (String(name), try JSONParser().parse(value))
    } catch {
      let hint =
        value.isEmpty || value.first!.isLetter && !["true", "false", "null"].contains(value)
        ? " (for text use \(name)=\(value))" : ""
      throw CommandLineError(
        "invalid JSON in '\(argument)': \(error.message)\(hint)", command: .send)
    }
  }
}
