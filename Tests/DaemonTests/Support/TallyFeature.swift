import BlocCore
import FeatureKit
import Foundation
import StateServer

/// A small feature of the tests' own, exercising the declaration's field types, history,
/// failures and a slow handler.
struct TallyEvent: Hashable, Sendable {
  var type: String
  var by: Int?
  var value: Int?
  var message: String?
  var text: String?
  var color: String?
  var milliseconds: Int?
}

extension TallyEvent: DeclaredEvent {
  var kind: String { type }

  enum Color: String, CaseIterable, Encodable, Sendable { case red, green }

  static let declaration = EventDeclaration<TallyEvent>(
    feature: "tally",
    .event(
      "add", "Adds 'by' (default 1) to the count.",
      .optional(.integer("by", "How much to add.", minimum: 1, maximum: 1000, example: 2))
    ) { by in TallyEvent(type: "add", by: by) },
    .event("set", "Sets the count.", .integer("value", "The new count.", example: 3)) { value in
      TallyEvent(type: "set", value: value)
    },
    .event(
      "fail", "Fails with the given message; the state stays as it is.",
      .string("message", "What the failure says.", example: "no")
    ) { message in TallyEvent(type: "fail", message: message) },
    .event(
      "label", "Sets the label.", .string("text", "The label text.", example: "a"),
      .optional(.oneOf("color", "A color.", Color.self))
    ) { text, color in TallyEvent(type: "label", text: text, color: color?.rawValue) },
    .event(
      "slow", "Waits, then adds 1.",
      .integer(
        "milliseconds", "How long to wait.", minimum: 0, maximum: 60_000, example: 10)
    ) { milliseconds in TallyEvent(type: "slow", milliseconds: milliseconds) })
}

struct TallyState: DeclaredState {
  var count = 0
  var label = ""

  static let declaration = StateDeclaration(
    initial: TallyState(),
    .field("count", \.count, "The count."), .field("label", \.label, "The label."))
}

/// The tally, with history.
enum TallyFeature: FeatureDescription {
  typealias Event = TallyEvent
  typealias State = TallyState
  static let name = "tally"
  static let summary = "A test tally."
}

/// The tally, without history.
enum PlainFeature: FeatureDescription {
  typealias Event = TallyEvent
  typealias State = TallyState
  static let name = "plain"
  static let summary = "A tally without history."
}

struct TallyFailure: Error, CustomStringConvertible {
  let description: String
}

final class TallyBloc: Bloc<TallyEvent, TallyState>, @unchecked Sendable {
  /// How many `slow` handlers have started.
  let slowStarted = Locked(0)

  init(history: HistoryLimit? = .limit(50), storage: (any BlocStorage)? = nil) {
    super.init(
      initialState: TallyState(), history: history,
      persistence: storage.map { TallyPersistence.make($0) })
    on("add") { event, emit in
      emit(TallyState(count: emit.state.count + (event.by ?? 1), label: emit.state.label))
    }
    on("set") { event, emit in emit(TallyState(count: event.value ?? 0, label: emit.state.label)) }
    on("fail") { event, _ in throw TallyFailure(description: event.message ?? "failed") }
    on("label") { event, emit in emit(TallyState(count: emit.state.count, label: event.text ?? ""))
    }
    let started = slowStarted
    on("slow") { event, emit in
      started.withLock { $0 += 1 }
      try await Task.sleep(for: .milliseconds(event.milliseconds ?? 0))
      emit(TallyState(count: emit.state.count + 1, label: emit.state.label))
    }
  }
}

extension TallyState: PersistableState {}

enum TallyPersistence {
  static func make(_ storage: any BlocStorage) -> Persistence<TallyState> {
    Persistence(storage: storage, key: "tally")
  }
}
