import BlocCore
import FeatureKit
import Wire

extension Feature {
  /// What keeps this feature from working as declared, one sentence each; empty when it
  /// conforms. Every registered feature gets the check for free (FeatureConformanceTests runs it
  /// on the daemon's features), so a forgotten declaration or handler fails a test, never a
  /// client's request:
  /// - every case of the event enum has a declared event, and every declared `type` is a case;
  /// - each declared event's example decodes, has a handler in the bloc, and encodes back to
  ///   the same JSON.
  public func conformanceProblems() -> [String] { audit() }

  static func problems<Event: DeclaredEvent, State>(
    of feature: String, _ declaration: EventDeclaration<Event>, _ bloc: Bloc<Event, State>
  ) -> [String] {
    var problems = declaration.mismatches
    for shape in declaration.shapes {
      let example: JSON
      let event: Event
      do {
        example = try JSON(parsing: shape.example)
        guard case .object = example else {
          problems.append("the example of '\(shape.type)' is not a JSON object: \(shape.example)")
          continue
        }
        event = try Array(shape.example.utf8).withUnsafeBytes { bytes in
          var cursor = JSONCursor(bytes)
          try cursor.readDocument()
          return try declaration.decode(cursor)
        }
      } catch {
        problems.append("the example of '\(shape.type)', \(shape.example), is refused: \(error)")
        continue
      }
      if !bloc.handles(event) {
        problems.append(
          "the event '\(shape.type)' has no handler: handle it in the reducer, or register "
            + "on(kind) for its kind")
      }
      do {
        var json = JSONWriter()
        try event.write(to: &json)
        if try JSONParser().parse(json.bytes) != example {
          let text = String(decoding: json.bytes, as: UTF8.self)
          problems.append(
            "the event '\(shape.type)' encodes as \(text), not as its example \(shape.example)")
        }
      } catch {
        problems.append("the event '\(shape.type)' cannot be encoded: \(error)")
      }
    }
    return problems.map { "\(feature): \($0)" }
  }
}
