import BlocCore
import Wire

/// The replies built from a feature's state or description: each one line, written with
/// ``ReplyWriter``, or the `internal_error` reply when the state cannot be encoded.
extension RequestDispatcher {
  /// The reply to `undo` or `redo`: with `after`, the state the step produced, else the
  /// current one.
  static func historyReply(
    id: RequestID?, op: String, _ feature: Feature, changed: Bool, _ outcome: EventOutcome,
    _ after: Result<StateSnapshot, any Error>? = nil
  ) -> [UInt8] {
    if case .failed(let error) = outcome {
      return ReplyWriter.failure(
        id: id,
        WireError(
          .storageFailed,
          "the \(op) of '\(feature.name)' could not be stored: \(error); "
            + "check the state directory and retry"))
    }
    do {
      var reply = ReplyWriter(id: id, ok: true)
      reply.bool("changed", changed)
      reply.state(try after?.get() ?? feature.storedSnapshot())
      return reply.finish()
    } catch {
      return encodingFailure(id: id, feature, error)
    }
  }

  func stateReply(id: RequestID?, _ feature: Feature) -> [UInt8] {
    do {
      var reply = ReplyWriter(id: id, ok: true)
      reply.state(try feature.storedSnapshot())
      return reply.finish()
    } catch {
      return Self.encodingFailure(id: id, feature, error)
    }
  }

  /// The reply to `get` with `select`: the part of the state at the path, like a `watch`'s.
  static func selectedReply(
    id: RequestID?, _ feature: Feature, _ selection: StateSelection
  ) -> [UInt8] {
    let snapshot: StateSnapshot
    do {
      snapshot = try feature.storedSnapshot()
    } catch {
      return encodingFailure(id: id, feature, error)
    }
    let state = snapshot.parsed()
    guard selection.isPresent(in: state) else {
      return ReplyWriter.failure(id: id, absentMember(selection, feature, state))
    }
    var reply = ReplyWriter(id: id, ok: true)
    reply.integer("seq", Int64(clamping: snapshot.sequence))
    reply.string("select", selection.text)
    reply.json("value", selection.value(in: state))
    return reply.finish()
  }

  /// The error for a select path whose first member is not a member of the state.
  static func absentMember(
    _ selection: StateSelection, _ feature: Feature, _ state: JSON
  ) -> WireError {
    let members = state.objectValue?.keys.joined(separator: ", ") ?? ""
    return WireError(
      .invalidField,
      "field 'select': the state of '\(feature.name)' has no member "
        + "'\(selection.members[0].prefix(64))'; members: \(members)")
  }

  /// The reply to a `send`, written into `buffer`'s storage.
  static func outcomeReply(
    id: RequestID?, _ feature: Feature, _ outcome: EventOutcome,
    reusing buffer: consuming [UInt8] = []
  ) -> [UInt8] {
    let snapshot: StateSnapshot
    do {
      snapshot = try feature.storedSnapshot()
    } catch {
      return encodingFailure(id: id, feature, error)
    }
    var lines = consume buffer
    lines.removeAll(keepingCapacity: true)
    ReplyWriter.appendOutcome(id: id, outcome, snapshot, to: &lines)
    return lines
  }

  static func encodingFailure(id: RequestID?, _ feature: Feature, _ error: any Error) -> [UInt8] {
    ReplyWriter.failure(
      id: id,
      WireError(.internalError, "cannot encode the state of '\(feature.name)' as JSON: \(error)"))
  }

  static func summary(_ feature: Feature) -> JSON {
    [
      "name": .string(feature.name), "summary": .string(feature.summary),
    ]
  }

  static func describeReply(id: RequestID?, _ feature: Feature) -> [UInt8] {
    var reply = ReplyWriter(id: id, ok: true, capacity: 1024)
    reply.string("feature", feature.name)
    reply.string("summary", feature.summary)
    reply.bool("undo_redo", feature.keepsHistory)
    reply.json("events", .array(feature.events.map(SchemaJSON.event)))
    reply.json("state_shape", .array(feature.shape.map(SchemaJSON.field)))
    return reply.finish()
  }
}
