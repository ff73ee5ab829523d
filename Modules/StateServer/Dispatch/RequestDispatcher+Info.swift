import BlocCore
import Glibc
import Wire

/// The `info` op: the daemon's state in sections, like `redis-cli INFO`. Read when the reply's
/// turn comes, so a pipelined `info` counts the requests before it.
extension RequestDispatcher {
  func infoReply(id: RequestID?) -> [UInt8] {
    var reply = ReplyWriter(id: id, ok: true, capacity: 1024)
    reply.json("server", .object(serverSection()))
    reply.json("clients", .object(clientsSection()))
    reply.json("stats", .object(statsSection()))
    reply.json("features", .array(registry.features.map(Self.featureSection)))
    reply.json("persistence", persistenceSection())
    return reply.finish()
  }

  private func serverSection() -> JSONObject {
    [
      "daemon": .string(version),
      "protocol": JSON(ProtocolInfo.version),
      "pid": JSON(Int(getpid())),
      "uptime_seconds": JSON(statistics.uptimeSeconds),
      "socket": details.socketPath.map(JSON.string) ?? .null,
      "state_directory": details.stateDirectory.map(JSON.string) ?? .null,
    ]
  }

  private func clientsSection() -> JSONObject {
    var watching = Set<UInt64>()
    var monitoring = Set<UInt64>()
    for feature in registry.features {
      watching.formUnion(feature.watchers.connectionIDs)
      monitoring.formUnion(feature.monitors.connectionIDs)
    }
    return [
      "connections": JSON(connectionCount),
      "watching": JSON(watching.count),
      "monitoring": JSON(monitoring.count),
    ]
  }

  private func statsSection() -> JSONObject {
    let stats = statistics
    return [
      "requests": JSON(stats.requests.load(ordering: .relaxed)),
      "refused": JSON(stats.refused.load(ordering: .relaxed)),
      "events": [
        "handled": JSON(stats.handled.load(ordering: .relaxed)),
        "dropped": JSON(stats.dropped.load(ordering: .relaxed)),
        "cancelled": JSON(stats.cancelled.load(ordering: .relaxed)),
        "failed": JSON(stats.failed.load(ordering: .relaxed)),
        "refused": JSON(stats.refusedEvents.load(ordering: .relaxed)),
      ],
    ]
  }

  /// A feature's `seq`, the size of its state's JSON, and its watchers and monitors.
  private static func featureSection(_ feature: Feature) -> JSON {
    var section: JSONObject = ["name": .string(feature.name)]
    if let snapshot = try? feature.storedSnapshot() {
      section["seq"] = JSON(Int(clamping: snapshot.sequence))
      section["state_bytes"] = JSON(snapshot.json.count)
    } else {
      section["seq"] = .null
      section["state_bytes"] = .null
    }
    section["watchers"] = JSON(feature.watchers.watcherCount)
    section["monitors"] = JSON(feature.monitors.monitorCount)
    return .object(section)
  }

  private func persistenceSection() -> JSON {
    guard let storage = details.storage else { return .null }
    let status = storage.status
    var section: JSONObject = [
      "sync": .string(storage.syncPolicy.rawValue),
      "journal": .string(status.journal),
      "journal_bytes": JSON(status.journalBytes),
      "journal_records": JSON(status.records),
      "batches_written": JSON(status.batches),
      "compacting": .bool(status.compacting),
    ]
    if let snapshot = status.snapshot {
      section["snapshot"] = [
        "file": .string(snapshot.name),
        "bytes": JSON(snapshot.bytes),
        "written_at": JSON(snapshot.modified),
        "age_seconds": JSON(max(0, Int(time(nil)) - snapshot.modified)),
      ]
    } else {
      section["snapshot"] = .null
    }
    return .object(section)
  }
}
