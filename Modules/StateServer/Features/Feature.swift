import BlocCore
import Foundation
import Wire

/// A state as the wire carries it: its sequence number and its compact JSON text.
public struct StateSnapshot: Sendable, Equatable {
  /// The bloc's ``BlocBase/sequence`` when the state was current.
  public let seq: UInt64
  /// Compact JSON (one line, keys sorted), without a trailing newline.
  public let json: [UInt8]
}

/// One served bloc, seen through closures so the server needs no knowledge of its types.
///
/// Created by ``FeatureRegistry/register(_:_:summary:)``.
public final class Feature: Sendable {
  public let name: String
  public let summary: String
  /// The event schemas, in the order the feature declares them.
  public let events: [EventSchema]
  /// The fields of the state.
  public let shape: [FieldSchema]
  /// Whether the bloc keeps history, so `undo` and `redo` are supported.
  public let keepsHistory: Bool

  private let schemaByType: [String: EventSchema]
  private let currentSnapshot: @Sendable () throws -> StateSnapshot
  private let addEvent: @Sendable (EventPayload, EventSchema) throws(WireError) -> EventReceipt
  private let step: @Sendable (_ forward: Bool) -> Bool
  private let stored: @Sendable () -> EventReceipt
  private let settle: @Sendable () async -> Void
  private let shutDown: @Sendable () async -> Void
  let watchers: WatchHub

  init<E: DescribedEvent, S: DescribedState>(name: String, bloc: Bloc<E, S>, summary: String) {
    self.name = name
    self.summary = summary
    events = E.schema
    shape = S.shape
    keepsHistory = bloc.keepsHistory
    var byType: [String: EventSchema] = [:]
    for schema in E.schema { byType[schema.type] = byType[schema.type] ?? schema }
    schemaByType = byType

    let codec = StateCodec<S>()
    currentSnapshot = {
      // Sequence and state read together, so the state belongs to that number; only a stored
      // state is shown to clients.
      let current = bloc.storedSnapshot
      return try codec.snapshot(current.sequence, current.state)
    }
    let decoder = EventDecoder<E>(feature: name)
    addEvent = { payload, schema throws(WireError) in
      bloc.add(try decoder.decode(payload, schema: schema))
    }
    step = { forward in forward ? bloc.redo() : bloc.undo() }
    stored = { bloc.changesStored() }
    settle = { await bloc.settled() }
    shutDown = { await bloc.close() }
    watchers = WatchHub(
      feature: name,
      listen: { deliver in
        // On the emitting thread, for every change: encoded once per sequence number (the
        // codec keeps it for the replies that carry the same state).
        bloc.listen { update in
          guard let snapshot = try? codec.snapshot(update.sequence, update.state) else { return }
          deliver(snapshot)
        }
      },
      stopListening: { token in bloc.removeListener(token) })
  }

  /// The valid event type names, in declaration order.
  public var eventTypes: [String] { events.map(\.type) }

  /// The current state with its sequence number (encoded once per sequence number).
  /// Throws when the state cannot be encoded as JSON.
  public func snapshot() throws -> StateSnapshot { try currentSnapshot() }

  /// Validates `payload` against the schema, decodes it and adds it to the bloc, in the
  /// caller's order. Throws the protocol error for a bad event; the state is then untouched.
  public func send(_ payload: EventPayload) throws(WireError) -> EventReceipt {
    guard let schema = schemaByType[payload.type] else {
      throw WireError(
        .unknownEvent,
        "feature '\(name)' has no event '\(payload.type)'; valid types: "
          + eventTypes.joined(separator: ", "))
    }
    do {
      try EventValidator.validate(payload, against: schema)
    } catch {
      // The decoder has the last word on what the schema only describes; when it refuses
      // too, the schema's message is the more precise one.
      if error.isFinal { throw error.error }
      do {
        return try addEvent(payload, schema)
      } catch _ {
        throw error.error
      }
    }
    return try addEvent(payload, schema)
  }

  /// How many connections watch this feature.
  public var watcherCount: Int { watchers.watcherCount }

  /// Undoes the last change; false when there was nothing to undo.
  public func undo() -> Bool { step(false) }

  /// Redoes the last undone change; false when there was nothing to redo.
  public func redo() -> Bool { step(true) }

  /// Resolves once every change made so far is stored (`.failed` when it could not be).
  public func changesStored() -> EventReceipt { stored() }

  /// Waits until the bloc finished the work started so far.
  public func settled() async { await settle() }

  /// Closes the bloc (cancels what still runs, waits until its state is stored) and ends
  /// every watch of it.
  public func close() async {
    await shutDown()
    watchers.stop()
  }
}

/// Encodes states into Wire's compact form (keys sorted, as `JSONEncoder` with `.sortedKeys`
/// writes them), and keeps the newest so each sequence number is encoded once however many
/// replies and pushes carry it.
///
/// ``StateEncoder`` builds the JSON directly; a state holding a type it does not reproduce
/// (`Date`, `Data`, …) goes through `JSONEncoder` and Wire's parser instead.
final class StateCodec<S: Encodable & Sendable>: Sendable {
  private let latest = Locked<StateSnapshot?>(nil)

  func cached(_ sequence: UInt64) -> StateSnapshot? {
    latest.withLock { latest in latest?.seq == sequence ? latest : nil }
  }

  func snapshot(_ sequence: UInt64, _ state: S) throws -> StateSnapshot {
    if let cached = cached(sequence) { return cached }
    let snapshot = StateSnapshot(seq: sequence, json: try Self.encode(state).serialized())
    latest.withLock { latest in
      if latest.map({ $0.seq <= sequence }) ?? true { latest = snapshot }
    }
    return snapshot
  }

  static func encode(_ state: S) throws -> JSON {
    do {
      return try StateEncoder.encode(state)
    } catch is StateEncoder.Unsupported {
      return try encodeWithFoundation(state)
    }
  }

  /// `JSONEncoder` (sorted keys), read back with Wire's parser: the reference form.
  static func encodeWithFoundation(_ state: S) throws -> JSON {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = try encoder.encode(state)
    return try data.withUnsafeBytes { try JSONParser().parse($0) }
  }
}

/// Turns a validated event payload into the feature's event type with `JSONDecoder`.
/// Events without fields are decoded once per type and reused.
final class EventDecoder<E: DescribedEvent>: Sendable {
  private let feature: String
  private let plain = Locked<[String: E]>([:])

  init(feature: String) { self.feature = feature }

  func decode(_ payload: EventPayload, schema: EventSchema) throws(WireError) -> E {
    let reusable = payload.fields.isEmpty
    if reusable, let event = plain.withLock({ $0[payload.type] }) { return event }
    let bytes = payload.json.serialized()
    let event: E
    do {
      event = try JSONDecoder().decode(E.self, from: Data(bytes))
    } catch let error as DecodingError {
      throw EventValidator.wireError(for: error, type: payload.type)
    } catch {
      throw WireError(.invalidField, "event '\(payload.type)' is not valid: \(error)")
    }
    if reusable { plain.withLock { $0[payload.type] = event } }
    return event
  }
}
