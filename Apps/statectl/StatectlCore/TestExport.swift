import Wire

/// `statectl export-test FILE --feature F`: a Swift Testing file that replays feature F of a
/// recording with BlocTest, in the daemon's own composition (StatedFeatures' `registerFeatures`,
/// in memory). It knows the feature only by name: a ``FeatureVisitor`` (StateServer) gives it
/// the bloc with its types, and the recorded events and states are decoded through the
/// feature's declarations. It seeds the recorded starting state, adds the recorded events
/// (undo and redo as such), and expects the recorded states; the other recorded features are
/// set to their recorded states as they changed, so that the feature reads them as it did.
/// Changes not made by an event of the feature (goto, restore, migration) and events whose
/// result depends on the outside world are set as recorded.
enum TestExport {
  /// What cannot be exported, and why.
  struct Problem: Error, Equatable {
    var message: String
  }

  /// The Swift source of the test of `feature`, named `name` (default
  /// `Recorded<Feature>Session`). `command` is the command line, for the file's comment.
  static func source(
    _ recording: Recording, feature: String, name: String?, command: String
  ) throws(Problem) -> String {
    guard let recorded = recording.feature(named: feature) else {
      throw Problem(
        message:
          "feature '\(feature)' is not in the recording; recorded: \(recording.features.map(\.name).joined(separator: ", "))"
      )
    }
    let suite = name ?? "Recorded\(typeName(feature))Session"
    func effectful(_ feature: Recording.Feature) -> Set<String> {
      Set(
        (feature.describe["events"]?.arrayValue ?? []).compactMap { event in
          event["effects"]?.boolValue == true ? event["type"]?.stringValue : nil
        })
    }
    let effects = effectful(recorded)
    var steps: [String] = []
    var expected: [String] = []
    var failures: [String] = []
    var current = recorded.state
    var sequence = recorded.seq
    for entry in recording.entries {
      let seq = entry.seq.map { "seq \($0)" } ?? "line \(entry.line)"
      let after = entry.after ?? .null
      guard entry.feature == feature else {
        // Another recorded feature: its event sent again (what it stores is what this feature
        // reads), or its recorded state set.
        guard let other = recording.feature(named: entry.feature), entry.before != entry.after
        else { continue }
        let type = entry.push["event"]?["type"]?.stringValue ?? ""
        let event =
          entry.cause == "event" && entry.outcome == "handled" && !effectful(other).contains(type)
          ? literal((entry.push["event"] ?? .null).serializedString()) : "nil"
        steps.append(
          ".other(\(literal(entry.feature)), event: \(event), state: \(literal(after.serializedString()))),  // \(seq)"
        )
        continue
      }
      let label = TransitionFormat.label(entry.push)
      let made = entry.seq.map { $0 > sequence ? $0 - sequence : 0 } ?? 0
      if let pushed = entry.seq { sequence = max(sequence, pushed) }
      switch entry.cause {
      case "event":
        let type = entry.push["event"]?["type"]?.stringValue ?? ""
        if entry.outcome == "dropped" || entry.outcome == "cancelled" {
          steps.append("// \(seq): \(label), \(entry.outcome) when recorded (timing): not sent")
          continue
        }
        if effects.contains(type) {
          steps.append(
            ".set(\(literal(after.serializedString()))),  // \(seq): \(label), its result depends on the outside world: set as recorded"
          )
          current = after
          continue
        }
        guard made <= 1 else {
          throw Problem(
            message:
              "\(seq) (line \(entry.line)): \(feature) \(label) made \(made) changes, and the recording has only the last; a test would see the others. Use 'statectl replay' for this recording"
          )
        }
        let event = literal((entry.push["event"] ?? .null).serializedString())
        if entry.outcome == "failed" {
          let message = entry.push["error"]?["message"]?.stringValue ?? ""
          failures.append(literal(message) + ",")
          steps.append(".send(\(event), failure: \(literal(message))),  // \(seq)")
          continue
        }
        steps.append(".send(\(event)),  // \(seq)")
      case "undo", "redo":
        steps.append(".\(entry.cause),  // \(seq)")
      default:
        steps.append(".set(\(literal(after.serializedString()))),  // \(seq): \(label)")
        current = after
        continue
      }
      if after != current {
        expected.append(literal(after.serializedString()) + ",  // \(seq)")
        current = after
      }
    }
    let others = recording.features.filter { $0.name != feature }.map {
      "(\(literal($0.name)), \(literal($0.state.serializedString()))),"
    }
    return render(
      suite: suite, feature: feature, start: literal(recorded.state.serializedString()),
      others: others, steps: steps, expected: expected, failures: failures, command: command,
      recording: recording)
  }

  private static func render(
    suite: String, feature: String, start: String, others: [String], steps: [String],
    expected: [String], failures: [String], command: String, recording: Recording
  ) -> String {
    func list(_ items: [String], indent: String = "    ") -> String {
      items.isEmpty ? "[]" : "[\n" + items.map { indent + $0 + "\n" }.joined() + "  ]"
    }
    let made = recording.recordedAt.map { " made on \($0)" } ?? ""
    let version = recording.protocolVersion.map { " (protocol \($0))" } ?? ""
    return """
      // Exported from a recording of stated\(version)\(made) by
      //   \(command)
      // It replays feature '\(feature)' as the daemon composes it (StatedFeatures'
      // registerFeatures, in memory): BlocTest seeds the recorded starting state, adds the
      // recorded events and expects the recorded states, decoded through the feature's own
      // declarations. The other recorded features are set to their recorded states as they
      // changed, so that '\(feature)' reads them as it did.
      @_spi(Testing) import BlocCore
      import BlocTest
      import FeatureKit
      import Foundation
      import StateServer
      import StatedFeatures
      import Testing

      @Suite struct \(suite) {
        static let feature = \(literal(feature))
        /// The recorded starting state.
        static let start = \(start)
        /// The other recorded features and their states at the start.
        static let others: [(feature: String, state: String)] = \(list(others))
        /// What happened, in the recorded order.
        static let steps: [Step] = \(list(steps))
        /// The states '\(feature)' goes through.
        static let expected: [String] = \(list(expected))
        /// The messages of the events that failed.
        static let failures: [String] = \(list(failures))

        @Test func replaysTheRecordedSession() async throws {
          let registry = FeatureRegistry()
          registerFeatures(in: registry, storage: InMemoryStorage())
          for (feature, state) in Self.others {
            #expect(try await registry.visit(feature, SetState(json: state)), "no feature '\\(feature)'")
          }
          let found = try await registry.visit(Self.feature, Replay(registry: registry))
          #expect(found, "the daemon serves no feature '\\(Self.feature)'")
          await registry.closeAll()
        }
      }

      extension \(suite) {
        enum Step: Sendable {
          /// An event of the feature, handled or failing with this message.
          case send(String, failure: String? = nil)
          case undo
          case redo
          /// The feature's state set as recorded (not an event of its own, or an event whose
          /// result depends on the outside world).
          case set(String)
          /// Another recorded feature changed to `state`, by `event` when an event made it.
          case other(String, event: String?, state: String)
        }

        static func decode<Value: Decodable>(_ type: Value.Type, _ json: String) throws -> Value {
          try JSONDecoder().decode(Value.self, from: Data(json.utf8))
        }

        /// Sets a feature's state to `json`, decoded as its state, unless it is that already.
        struct SetState: FeatureVisitor {
          let json: String

          func visit<Event: DeclaredEvent, State: DeclaredState>(
            _ bloc: Bloc<Event, State>
          ) async throws {
            let state = try \(suite).decode(State.self, json)
            if bloc.state != state { bloc.seed(state) }
          }
        }

        /// Sends a feature the event `json`, decoded as its event.
        struct SendEvent: FeatureVisitor {
          let json: String

          func visit<Event: DeclaredEvent, State: DeclaredState>(
            _ bloc: Bloc<Event, State>
          ) async throws {
            _ = await bloc.send(try \(suite).decode(Event.self, json))
          }
        }

        /// The recorded session as a BlocTest of the feature's bloc.
        struct Replay: FeatureVisitor {
          let registry: FeatureRegistry

          func visit<Event: DeclaredEvent, State: DeclaredState>(
            _ bloc: Bloc<Event, State>
          ) async throws {
            let registry = registry
            await blocTest(
              build: { _ in bloc },
              seed: try \(suite).decode(State.self, \(suite).start),
              act: { context in
                for step in \(suite).steps {
                  switch step {
                  case .send(let json, let failure):
                    let event = try \(suite).decode(Event.self, json)
                    let outcome = await context.bloc.send(event)
                    #expect(outcome.isHandled == (failure == nil), "\\(json): \\(outcome)")
                  case .undo: #expect(context.bloc.undo())
                  case .redo: #expect(context.bloc.redo())
                  case .set(let json):
                    context.bloc.seed(try \(suite).decode(State.self, json))
                  case .other(let feature, let event?, _):
                    try await registry.visit(feature, SendEvent(json: event))
                  case .other(let feature, nil, let state):
                    try await registry.visit(feature, SetState(json: state))
                  }
                }
              },
              expect: try \(suite).expected.map { try \(suite).decode(State.self, $0) },
              errors: \(suite).failures.map { .message(containing: $0) })
          }
        }
      }

      """
  }

  /// `text` as a Swift string literal: plain when it holds no quote or backslash, else a raw
  /// one with as many `#` as it needs.
  static func literal(_ text: String) -> String {
    if !text.contains("\"") && !text.contains("\\") { return "\"" + text + "\"" }
    var needed = 0
    var run = -1
    for character in text {
      // A raw string ends at `"#…` and escapes at `\#…`: more `#` than either.
      if character == "\"" || character == "\\" {
        run = 0
      } else if character == "#", run >= 0 {
        run += 1
      } else {
        run = -1
      }
      needed = max(needed, run + 1)
    }
    let hashes = String(repeating: "#", count: max(1, needed))
    return hashes + "\"" + text + "\"" + hashes
  }

  /// `counter` → `Counter`, `app-search` → `AppSearch`: a feature's name as part of a type name.
  static func typeName(_ feature: String) -> String {
    let parts = feature.split { !($0.isLetter || $0.isNumber) }
    let joined = parts.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    guard let first = joined.first, first.isLetter else { return "Feature" + joined }
    return joined
  }

  /// Whether `text` is a Swift identifier fit for a type name.
  static func isTypeName(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first else { return false }
    let letter = { (scalar: Unicode.Scalar) in
      (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || scalar == "_"
    }
    return letter(first)
      && text.unicodeScalars.allSatisfy { letter($0) || ($0 >= "0" && $0 <= "9") }
  }
}

extension Conversation {
  /// Writes the test of `feature` to `output`, or to standard output. Needs no daemon.
  mutating func exportTest(
    file: String, feature: String, name: String?, output: String?
  ) -> ExitStatus {
    do {
      let recording = try Self.readRecording(file)
      var command = "statectl export-test \(file) --feature \(feature)"
      if let name { command += " --name \(name)" }
      let source: String
      do {
        source = try TestExport.source(recording, feature: feature, name: name, command: command)
      } catch {
        throw Failure(status: .usage, message: "statectl: \(file): " + error.message)
      }
      guard let output else {
        console.out(source)
        return .success
      }
      do {
        try TextFile.write(source, to: output)
      } catch {
        throw Failure(status: .refused, message: "statectl: " + error.message)
      }
      return .success
    } catch {
      return report(error)
    }
  }
}
