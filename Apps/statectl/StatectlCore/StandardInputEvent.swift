import Wire

/// `statectl send FEATURE -`: the event is one JSON object read from standard input, with its
/// `"type"` and fields, as the protocol writes it (what `describe` shows as each event's
/// example).
///
/// ```sh
/// echo '{"type":"set","value":5}' | statectl send counter -
/// ```
enum StandardInputEvent {
  static let example = #"{"type":"increment"}"#

  /// The `send` command for the event on stdin; a usage failure (2) when stdin does not hold
  /// one JSON object with a string `"type"`.
  static func command(feature: String, read: () -> [UInt8]?) throws(Failure) -> Command {
    var bytes: [UInt8] = []
    while let chunk = read(), !chunk.isEmpty { bytes += chunk }
    let value: JSON
    do {
      value = try JSONParser().parse(bytes)
    } catch {
      throw usage("stdin is not a JSON event: \(error.message)")
    }
    guard case .object(var event) = value else {
      throw usage("stdin must hold one JSON object, the event, got \(value.typeName)")
    }
    guard case .string(let type)? = event["type"], !type.isEmpty else {
      throw usage("the event on stdin needs a \"type\" string")
    }
    event["type"] = nil
    return .send(feature: feature, event: type, fields: event)
  }

  private static func usage(_ message: String) -> Failure {
    Failure(
      status: .usage,
      message: "statectl: \(message)\nhint: send one object such as \(example); "
        + "'statectl describe FEATURE' shows each event's")
  }
}
