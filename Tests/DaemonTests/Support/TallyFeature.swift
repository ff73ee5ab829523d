import BlocCore
import Foundation
import StateServer

/// A small feature of the tests' own, exercising every schema type, history, failures and a
/// slow handler.
struct TallyEvent: DescribedEvent, Hashable {
  var type: String
  var by: Int?
  var value: Int?
  var message: String?
  var text: String?
  var color: String?
  var tags: [String]?
  var milliseconds: Int?

  var kind: String { type }

  static let schema: [EventSchema] = [
    EventSchema(
      "add", "Adds 'by' (default 1) to the count.",
      fields: [
        .init("by", .integer(minimum: 1, maximum: 1000), "How much to add.", required: false)
      ]
    ),
    EventSchema("set", "Sets the count.", fields: [.init("value", .integer, "The new count.")]),
    EventSchema(
      "fail", "Fails with the given message; the state stays as it is.",
      fields: [.init("message", .string, "What the failure says.")]),
    EventSchema(
      "label", "Sets the label.",
      fields: [
        .init("text", .string, "The label text."),
        .init("color", .oneOf(["red", "green"]), "A color.", required: false),
        .init("tags", .array(.string), "Tags.", required: false),
      ]),
    // Says less than the decoder accepts (a string passes too), like a value whose type
    // depends on another field.
    EventSchema(
      "note", "Sets the label; the schema claims an integer.",
      fields: [.init("text", .integer, "The note.")]),
    EventSchema(
      "slow", "Waits, then adds 1.",
      fields: [.init("milliseconds", .integer(minimum: 0, maximum: 60_000), "How long to wait.")]),
  ]
}

struct TallyState: DescribedState {
  var count = 0
  var label = ""

  static let shape: [FieldSchema] = [
    .init("count", .integer, "The count."), .init("label", .string, "The label."),
  ]
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
    on("note") { event, emit in
      emit(TallyState(count: emit.state.count, label: event.text ?? ""))
    }
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
