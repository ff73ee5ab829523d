import BlocCore
import FeatureKit
import Wire

/// A state as the wire carries it: its sequence number and its compact JSON text.
public struct StateSnapshot: Sendable, Equatable {
  /// The bloc's ``BlocBase/sequence`` when the state was current.
  public let sequence: UInt64
  /// Compact JSON (one line, keys sorted), without a trailing newline.
  public let json: [UInt8]

  init(sequence: UInt64, json: [UInt8]) {
    self.sequence = sequence
    self.json = json
  }
}

/// One served bloc, seen through closures so the server needs no knowledge of its types.
///
/// Created by ``FeatureRegistry/register(_:_:)``.
public final class Feature: Sendable {
  public let name: String
  /// The name's UTF-8, to compare with a request's bytes (``isNamed(_:)``).
  private let nameBytes: [UInt8]
  public let summary: String
  /// The events, in the order the feature declares them.
  public let events: [EventShape]
  /// The fields of the state.
  public let shape: [FieldShape]
  /// Whether the bloc keeps history, so `undo` and `redo` are supported.
  public let keepsHistory: Bool

  private let readStored: @Sendable () throws -> StateSnapshot
  private let readCurrent: @Sendable () throws -> StateSnapshot
  private let addEvent:
    @Sendable (JSONCursor, _ soleType: UnsafeRawBufferPointer?, _ straightThrough: Bool)
      throws(EventRefusal) -> AddedEvent
  private let storeStatusOf: @Sendable (UInt64) -> StoreStatus
  private let readTurn: @Sendable () -> (StoreProgress, StateSnapshot?)
  /// history, goto, restore, undo and redo (Feature+TimeTravel.swift).
  let timeTravel: TimeTravelAccess
  private let stored: @Sendable (UInt64, @escaping @Sendable (PersistenceError?) -> Void) -> Void
  private let settle: @Sendable () async -> Void
  private let shutDown: @Sendable () async -> Void
  let audit: @Sendable () -> [String]
  /// Runs a visitor with the bloc, its types known (``FeatureRegistry/visit(_:_:)``).
  let open: FeatureOpener
  let watchers: WatchHub
  let monitors: MonitorHub

  /// The closures a `send` runs (decode, then `handleInline` or `add`; the turn's read of
  /// where the changes stand) name no type generic over the feature's, so they look up no
  /// generic metadata even where they run unspecialised.
  ///
  /// - Parameter storedState: the bloc's newest stored state and its sequence number, read
  ///   together: built by the caller, where the types are known, to be specialised.
  init<Description: FeatureDescription>(
    _ description: Description.Type, bloc: Bloc<Description.Event, Description.State>,
    storedState: @escaping @Sendable () -> (UInt64, Description.State)
  ) {
    name = description.name
    nameBytes = Array(description.name.utf8)
    summary = description.summary
    let declaration = Description.Event.declaration
    events = declaration.shapes
    shape = Description.State.shape
    keepsHistory = bloc.keepsHistory

    let codec = StateCodec<Description.State>()
    // The state's text for clients is the one written to store it: written once.
    bloc.keepStoredText()
    readStored = {
      // Only a stored state is shown to clients.
      let (sequence, state) = storedState()
      if let text = bloc.storedText, text.sequence == sequence {
        return StateSnapshot(sequence: text.sequence, json: text.json)
      }
      return try codec.snapshot(sequence, state)
    }
    readCurrent = {
      let current = bloc.currentSnapshot
      return try codec.snapshot(current.sequence, current.state)
    }
    // The request's bytes go straight to the declaration: no tree, no second parse.
    let reader = declaration.reader  // a reference: no generic value captured
    addEvent = { cursor, soleType, straightThrough throws(EventRefusal) in
      let event = try reader.decode(cursor, soleType: soleType, as: Description.Event.self)
      if straightThrough, let done = bloc.handleInline(event) {
        return .handled(done.outcome, changed: done.changed)
      }
      return .queued(bloc.add(event))
    }
    timeTravel = TimeTravelAccess.make(description, bloc: bloc)
    stored = { sequence, body in bloc.whenStored(sequence, body) }
    storeStatusOf = { sequence in bloc.storeStatus(of: sequence) }
    readTurn = {
      // A persisted bloc's kept text (one that persists nothing keeps none: it shows its
      // current state).
      let (progress, text) = bloc.storeProgressAndText
      guard let text else { return (progress, nil) }
      return (progress, StateSnapshot(sequence: text.sequence, json: text.json))
    }
    settle = { await bloc.settled() }
    shutDown = { await bloc.close() }
    audit = { [name] in Self.problems(of: name, declaration, bloc) }
    open = { try await $0.visit(bloc) }
    let name = name
    watchers = WatchHub(
      feature: name,
      listen: { deliver in
        // On the emitting thread, for every change: written once per sequence number (the
        // codec keeps it for the replies that carry the same state).
        bloc.listen { update in
          guard let snapshot = try? codec.snapshot(update.sequence, update.state) else { return }
          deliver(snapshot)
        }
      },
      stopListening: { token in bloc.removeListener(token) })
    monitors = MonitorHub(
      feature: name,
      install: { report in
        bloc.addObserver(EventTracker<Description.Event, Description.State>(report: report))
      },
      uninstall: { token in bloc.removeObserver(token) })
  }

  /// Whether `bytes` spell the feature's name (in UTF-8).
  func isNamed(_ bytes: UnsafeRawBufferPointer) -> Bool {
    bytes.hasSameBytes(as: nameBytes)
  }

  /// The valid event type names, in declaration order.
  public var eventTypes: [String] { events.map(\.type) }

  /// The newest stored state with its sequence number (written once per sequence number); for
  /// a feature that persists nothing, the current state. What clients are shown.
  /// Throws when the state cannot be encoded as JSON.
  public func storedSnapshot() throws -> StateSnapshot { try readStored() }

  /// The state as changed so far, possibly not stored yet: for a reply sent only once the
  /// change it shows is stored (``whenStored(_:_:)``). Everything else shows ``storedSnapshot()``.
  public func currentSnapshot() throws -> StateSnapshot { try readCurrent() }

  /// Decodes the event at `event` (a value of a checked document, the `event` of a `send`)
  /// through the feature's declaration, straight from the bytes, and adds it to the bloc, in
  /// the caller's order. Throws the protocol error for a bad event (not an object, then its
  /// `type`, then unknown fields); the state is then untouched.
  public func add(_ event: JSONCursor) throws(WireError) -> EventReceipt {
    let added = try add(
      event, soleType: event.soleStringMember("type"), straightThrough: false)
    guard case .queued(let receipt) = added else {
      preconditionFailure("an event not asked to go straight through was handled inline")
    }
    return receipt
  }

  /// The `event` of a `send`, added as ``add(_:)-(JSONCursor)`` adds it, read where the
  /// request's reader found it: one call from the request to the bloc, the usual event's
  /// `type` as that reader noted it (not scanned again). With `straightThrough`, the event is
  /// handled at once when the bloc is idle and its handler synchronous
  /// (``Bloc/handleInline(_:)``): no receipt, and a change that still waits for storage
  /// (``storeStatus(of:)``). Throws `missing_field` when the request has no `event`.
  func add(eventOf request: RequestHead, straightThrough: Bool) throws(WireError) -> AddedEvent {
    try request.withEvent { event, soleType throws(WireError) in
      guard let event else {
        throw WireError(
          .missingField,
          "missing field 'event' (an object like {\"type\":\"…\"}; types of '\(name)': "
            + "\(eventTypes.joined(separator: ", ")))")
      }
      return try add(event, soleType: soleType, straightThrough: straightThrough)
    }
  }

  private func add(
    _ event: JSONCursor, soleType: UnsafeRawBufferPointer?, straightThrough: Bool
  ) throws(WireError) -> AddedEvent {
    guard event.isObject else {
      throw WireError(
        .invalidField,
        "field 'event' must be an object like {\"type\":\"…\"}, got \(event.typeName)")
    }
    do {
      return try addEvent(event, soleType, straightThrough)
    } catch {
      throw WireError(refusal: error)
    }
  }

  /// Decodes the event in the JSON text `event`, e.g. `{"type":"increment"}`, and adds it, as
  /// ``add(_:)-(JSONCursor)`` does; text that is not JSON is a `parse_error`.
  public func add(_ event: String) throws(WireError) -> EventReceipt {
    let bytes = Array(event.utf8)
    let added = bytes.withUnsafeBytes { bytes in
      Result { () throws(WireError) -> EventReceipt in
        var cursor = JSONCursor(bytes)
        do throws(JSONError) {
          try cursor.readDocument()
        } catch {
          throw WireError(error)
        }
        return try add(cursor)
      }
    }
    return try added.get()
  }

  /// Whether the state of `sequence` is stored, its write failed, or it is still on its way.
  func storeStatus(of sequence: UInt64) -> StoreStatus { storeStatusOf(sequence) }

  /// Where the bloc's changes stand on their way to storage, for many at once, and the newest
  /// stored state when it is at hand (written for storage, and its text kept, already: nil
  /// when it is not, then ``storedSnapshot()`` reads it).
  func storeProgress() -> (StoreProgress, StateSnapshot?) { readTurn() }

  /// How many connections watch this feature.
  public var watcherCount: Int { watchers.watcherCount }

  /// Undoes the last change. Returns its sequence number (for ``whenStored(_:_:)``), or nil
  /// when there was nothing to undo.
  public func undo() -> UInt64? { timeTravel.step(false)?.sequence }

  /// Redoes the last undone change. Returns its sequence number, or nil when there was
  /// nothing to redo.
  public func redo() -> UInt64? { timeTravel.step(true)?.sequence }

  /// Calls `body` once the state of `sequence` (or a later one) is stored, with the error if
  /// that write failed; at once when the feature persists nothing.
  public func whenStored(
    _ sequence: UInt64, _ body: @escaping @Sendable (PersistenceError?) -> Void
  ) {
    stored(sequence, body)
  }

  /// Waits until the bloc finished the work started so far.
  public func settled() async { await settle() }

  /// Closes the bloc (cancels what still runs, waits until its state is stored) and ends
  /// every watch and monitor of it.
  public func close() async {
    await shutDown()
    watchers.stop()
    monitors.stop()
  }
}

/// What ``Feature/add(eventOf:straightThrough:)`` did with an event.
enum AddedEvent {
  /// Handled at once: its handler's outcome, and the sequence number of its last change that
  /// waits for storage (0: none).
  case handled(EventOutcome, changed: UInt64)
  /// Added to the bloc's queue (or refused by it): the receipt tells the outcome.
  case queued(EventReceipt)
}

extension WireError {
  /// The protocol error for a refused event.
  init(refusal: EventRefusal) {
    switch refusal.reason {
    case .unknownEvent: self.init(.unknownEvent, refusal.message)
    case .missingField: self.init(.missingField, refusal.message)
    case .invalidField: self.init(.invalidField, refusal.message)
    }
  }
}

/// Writes states into Wire's compact form through their declaration (keys sorted), and keeps
/// the newest so each sequence number is written once however many replies and pushes carry
/// it (a persisted bloc's stored states come from its journal records instead:
/// ``BlocBase/keepStoredText()``).
final class StateCodec<S: DeclaredState>: Sendable {
  private let latest = Locked<StateSnapshot?>(nil)

  func cached(_ sequence: UInt64) -> StateSnapshot? {
    latest.withLock { latest in latest?.sequence == sequence ? latest : nil }
  }

  /// A state's JSON, written by its declaration.
  static func json(_ state: S) throws -> [UInt8] {
    var json = JSONWriter(capacity: 64)
    try state.write(to: &json)
    return json.bytes
  }

  func snapshot(_ sequence: UInt64, _ state: S) throws -> StateSnapshot {
    if let cached = cached(sequence) { return cached }
    return keep(StateSnapshot(sequence: sequence, json: try Self.json(state)))
  }

  /// Keeps `snapshot` unless a newer one is kept; returns it.
  @discardableResult
  func keep(_ snapshot: StateSnapshot) -> StateSnapshot {
    latest.withLock { latest in
      if latest.map({ $0.sequence <= snapshot.sequence }) ?? true { latest = snapshot }
    }
    return snapshot
  }
}
