import BlocCore
import Wire

/// `watch` and `monitor`: their replies are queued before the pushes start, so no push comes
/// first. (The other replies: RequestDispatcher+Replies.swift.)
extension RequestDispatcher {
  func watchReply(
    id: RequestID?, _ feature: Feature, _ session: ClientSession, _ selection: StateSelection?
  ) -> [UInt8] {
    let snapshot: StateSnapshot
    do {
      snapshot = try feature.storedSnapshot()
    } catch {
      return Self.encodingFailure(id: id, feature, error)
    }
    var reply = ReplyWriter(id: id, ok: true)
    var selected = JSON.null
    if let selection {
      let state = snapshot.parsed()
      guard selection.isPresent(in: state) else {
        return ReplyWriter.failure(id: id, Self.absentMember(selection, feature, state))
      }
      selected = selection.value(in: state)
      reply.integer("seq", Int64(clamping: snapshot.sequence))
      reply.string("select", selection.text)
      reply.json("value", selected)
    } else {
      reply.state(snapshot)
    }
    // Queued before the watch starts, so no push of it can come first.
    session.connection.queueReply(reply.finish())
    session.addWatch(feature.name)
    feature.watchers.watch(
      session.connection, seen: snapshot.sequence, selection: selection, selected: selected)
    return []
  }

  func monitorReply(
    id: RequestID?, _ features: [Feature], _ session: ClientSession
  ) -> [UInt8] {
    let names = features.map(\.name)
    for name in session.setMonitors(names) where !names.contains(name) {
      registry.feature(named: name)?.monitors.remove(session.connection.id)
    }
    var reply = ReplyWriter(id: id, ok: true)
    reply.json("monitoring", .array(names.map(JSON.string)))
    // Queued before monitoring starts, so no push can come first.
    session.connection.queueReply(reply.finish())
    for feature in features {
      feature.monitors.add(session.connection, backlogBytes: monitorBacklogBytes)
    }
    return []
  }

  /// Ends the connection's monitors; returns the features it monitored.
  @discardableResult
  func stopMonitoring(_ session: ClientSession) -> [String] {
    let monitored = session.setMonitors([])
    for name in monitored {
      registry.feature(named: name)?.monitors.remove(session.connection.id)
    }
    return monitored
  }
}
