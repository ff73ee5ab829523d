import BlocCore
import FeatureKit
import Foundation
import Wire

/// A change a request made (`undo`, `redo`, `goto`, `restore`), as monitors are told of it:
/// the states' JSON, written by their declaration.
struct ChangeReport: Sendable {
  let sequence: UInt64
  let before: [UInt8]
  let after: [UInt8]
}

/// What `history`, `goto`, `restore`, `undo` and `redo` need of a feature's bloc: closures over
/// its types, built where they are known (``Feature``'s init).
struct TimeTravelAccess: Sendable {
  /// The stored records of the retained changes, oldest first.
  let records: @Sendable () -> [Data]
  /// How many changes are retained at most; 0 when the feature keeps no history.
  let limit: Int
  /// The schema version states are stored with now: a record of another one is migrated.
  let schemaVersion: Int?
  /// The JSON of a record's state, decoded (and migrated) then written.
  let storedState: @Sendable (Data) throws -> [UInt8]
  /// Sets the state of a record as a change caused by a goto to that seq.
  let goto: @Sendable (Data, UInt64) throws -> ChangeReport?
  /// Sets a state decoded from JSON as a change caused by a restore.
  let restore: @Sendable (JSON) throws -> ChangeReport?
  /// Undoes (false) or redoes (true) the last change.
  let step: @Sendable (_ forward: Bool) -> ChangeReport?

  static func make<Description: FeatureDescription>(
    _ description: Description.Type, bloc: Bloc<Description.Event, Description.State>
  ) -> TimeTravelAccess {
    typealias State = Description.State
    @Sendable func json(_ state: State) -> [UInt8] {
      (try? StateCodec<State>.json(state)) ?? Array("null".utf8)
    }
    @Sendable func report(_ made: MadeChange<State>) -> ChangeReport {
      ChangeReport(
        sequence: made.sequence, before: json(made.change.current), after: json(made.change.next))
    }
    return TimeTravelAccess(
      records: { bloc.retainedChanges }, limit: bloc.retainedChangeLimit,
      schemaVersion: bloc.storedSchemaVersion,
      storedState: { record in try StateCodec<State>.json(try bloc.storedState(in: record)) },
      goto: { record, target in
        bloc.restoreChange(try bloc.storedState(in: record), cause: .goto(target)).map(report)
      },
      restore: { json in
        let state = try JSONValueDecoder.decode(State.self, from: json)
        return bloc.restoreChange(state, cause: .restore).map(report)
      },
      step: { forward in bloc.stepChange(forward: forward).map(report) })
  }
}

extension Feature {
  /// How many changes the feature retains at most; 0 when it keeps no history (it stores no
  /// state, or the storage keeps none).
  var historyLimit: Int { timeTravel.limit }

  /// The retained changes now, and the current seq.
  func history() throws -> RetainedHistory {
    RetainedHistory(records: timeTravel.records(), current: try storedSnapshot().sequence)
  }

  /// Writes a retained change as `history` lists it: `seq`, `time`, `cause`, `event` (cause
  /// event), `target` (cause goto), `outcome` (cause event), the `state` right after it.
  func writeTransition(_ change: RetainedHistory.Change, to json: inout JSONWriter) {
    let record = change.record
    json.ascii(#"{"seq":"#)
    json.integer(Int64(clamping: change.sequence))
    if let time = record["time"]?.int64Value {
      json.ascii(#","time":"#)
      json.string(RFC3339.format(milliseconds: time))
    }
    json.ascii(#","cause":"#)
    json.string(change.cause)
    if let event = record["event"] {
      json.ascii(#","event":"#)
      json.json(event)
    }
    if let target = record["target"] {
      json.ascii(#","target":"#)
      json.json(target)
    }
    if change.cause == "event" { json.ascii(#","outcome":"handled""#) }
    json.ascii(#","state":"#)
    // As stored, when stored in today's schema version; else read (migrated) and written.
    if let version = record["schemaVersion"]?.intValue, version == timeTravel.schemaVersion,
      let state = record["state"]
    {
      json.json(state)
    } else if let state = try? timeTravel.storedState(change.stored) {
      json.raw(state)
    } else {
      json.null()
    }
    json.byte(UInt8(ascii: "}"))
  }

  /// Sets the state right after `change` as a new change (cause goto). Nil when it is the
  /// state now (no change).
  func goto(_ change: RetainedHistory.Change) throws -> ChangeReport? {
    try timeTravel.goto(change.stored, change.sequence)
  }

  /// Sets `json`, decoded as this feature's state, as a new change (cause restore). Nil when
  /// it is the state now. Throws `invalid_field` for anything but a whole state of this
  /// feature: members it does not have, required ones missing, a value of the wrong type.
  func restore(_ json: JSON) throws(WireError) -> ChangeReport? {
    let fields = shape.map { "\($0.name) (\($0.type))" }.joined(separator: ", ")
    guard case .object(let object) = json else {
      throw WireError(
        .invalidField,
        "field 'state' must be an object, a state of '\(name)' as get shows it (fields: "
          + "\(fields)); got \(json.typeName)")
    }
    for key in object.keys where !shape.contains(where: { $0.name == key }) {
      throw WireError(
        .invalidField,
        "the state of '\(name)' has no field '\(key.prefix(64))' (at 'state.\(key.prefix(64))'); "
          + "its fields: \(fields)")
    }
    for field in shape where field.isRequired && object[field.name] == nil {
      throw WireError(
        .invalidField,
        "field 'state.\(field.name)' (\(field.type)) is missing: a restored state is whole; "
          + "its fields: \(fields)")
    }
    do {
      return try timeTravel.restore(json)
    } catch let error as DecodingError {
      throw WireError(
        .invalidField, "field 'state' is not a state of '\(name)': \(Self.reason(error))")
    } catch {
      throw WireError(.invalidField, "field 'state' is not a state of '\(name)': \(error)")
    }
  }

  /// `at 'state.count': expected Int, got string`.
  static func reason(_ error: DecodingError) -> String {
    let context: DecodingError.Context
    switch error {
    case .typeMismatch(_, let found), .valueNotFound(_, let found), .keyNotFound(_, let found),
      .dataCorrupted(let found):
      context = found
    @unknown default:
      return "\(error)"
    }
    let path = (["state"] + context.codingPath.map(\.stringValue)).joined(separator: ".")
    return "at '\(path)': \(context.debugDescription)"
  }
}
