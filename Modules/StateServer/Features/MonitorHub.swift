import BlocCore
import Wire

/// The connections monitoring one feature, fed by an ``EventTracker`` on its bloc.
///
/// The tracker is installed while anyone monitors. Each concluded event is built into one push
/// line, queued on every monitoring connection in order. Pushes of events are never coalesced,
/// so a client that does not read would make the daemon buffer without bound: while more than
/// its backlog limit (4 MiB by default) waits for a connection, its pushes are skipped and
/// counted, and the next one it gets says how many it `missed`.
final class MonitorHub: Sendable {
  typealias Report = @Sendable (ConcludedEvent) -> Void

  private struct Monitor {
    let connection: Connection
    /// Above this many unwritten bytes for the connection, its event pushes are skipped.
    let backlogBytes: Int
    var missed = 0
  }

  private struct State {
    var monitors: [UInt64: Monitor] = [:]
    var token: ObserverToken?
    var stopped = false
  }

  let feature: String
  private let install: @Sendable (@escaping Report) -> ObserverToken
  private let uninstall: @Sendable (ObserverToken) -> Void
  private let state = Locked(State())

  /// - Parameters:
  ///   - install: adds an observer that reports every concluded event; returns its token.
  ///   - uninstall: removes it.
  init(
    feature: String, install: @escaping @Sendable (@escaping Report) -> ObserverToken,
    uninstall: @escaping @Sendable (ObserverToken) -> Void
  ) {
    self.feature = feature
    self.install = install
    self.uninstall = uninstall
  }

  /// Starts pushing this feature's concluded events to `connection`, skipping them while more
  /// than `backlogBytes` wait for it. Call after queuing the `monitor` reply, so no push can
  /// precede it.
  func add(_ connection: Connection, backlogBytes: Int) {
    // Installed under the lock: the observer reports only after `install` returns, and a
    // concurrent `remove` must see the token.
    state.withLock { state in
      guard !state.stopped else { return }
      if state.monitors[connection.id] == nil {
        state.monitors[connection.id] = Monitor(connection: connection, backlogBytes: backlogBytes)
      }
      if state.token == nil {
        state.token = install { [weak self] event in self?.deliver(event) }
      }
    }
  }

  /// Stops pushing to the connection; returns whether it was monitoring. No push of this
  /// feature is queued for it after this returns.
  @discardableResult
  func remove(_ connectionID: UInt64) -> Bool {
    let (removed, token) = state.withLock { state -> (Bool, ObserverToken?) in
      let removed = state.monitors.removeValue(forKey: connectionID) != nil
      guard state.monitors.isEmpty, let token = state.token else { return (removed, nil) }
      state.token = nil
      return (removed, token)
    }
    if let token { uninstall(token) }
    return removed
  }

  /// How many connections monitor this feature.
  var monitorCount: Int { state.withLock { $0.monitors.count } }

  /// The connections that monitor this feature.
  var connectionIDs: Set<UInt64> { state.withLock { Set($0.monitors.keys) } }

  /// Ends every monitor (the bloc is closing).
  func stop() {
    let token = state.withLock { state -> ObserverToken? in
      state.stopped = true
      state.monitors = [:]
      defer { state.token = nil }
      return state.token
    }
    if let token { uninstall(token) }
  }

  /// Pushes a change a request made (`undo`, `redo`, `goto`, `restore`) to the monitors, once
  /// it is stored.
  func report(_ change: ConcludedEvent) {
    deliver(change)
  }

  private func deliver(_ event: ConcludedEvent) {
    state.withLock { state in
      guard !state.monitors.isEmpty else { return }
      var plain: [UInt8]?
      var index = state.monitors.values.startIndex
      while index != state.monitors.values.endIndex {
        let monitor = state.monitors.values[index]
        if monitor.connection.queuedByteCount > monitor.backlogBytes {
          state.monitors.values[index].missed += 1
        } else if monitor.missed > 0 {
          monitor.connection.queueReply(Self.line(feature, event, missed: monitor.missed))
          state.monitors.values[index].missed = 0
        } else {
          if plain == nil { plain = Self.line(feature, event, missed: 0) }
          monitor.connection.queueReply(plain!)
        }
        state.monitors.values.formIndex(after: &index)
      }
    }
  }

  /// `{"push":"event","feature":…,"cause":…,["event":…,]["target":…,]"outcome":…,
  /// ["error":…,]"seq":…,"time":…,"before":…,"after":…[,"missed":N]}\n`
  static func line(_ feature: String, _ event: ConcludedEvent, missed: Int) -> [UInt8] {
    var line = JSONWriter(capacity: 256)
    line.ascii(#"{"push":"event","feature":"#)
    line.string(feature)
    line.ascii(#","cause":"#)
    line.string(event.cause)
    if let payload = event.event {
      line.ascii(#","event":"#)
      line.raw(payload)
    }
    if let target = event.target {
      line.ascii(#","target":"#)
      line.integer(Int64(clamping: target))
    }
    line.ascii(#","outcome":"#)
    line.string(event.outcome.name)
    if case .failed(let error) = event.outcome {
      line.ascii(#","error":{"code":"#)
      // As in a `send` reply: a change that could not be stored is the daemon's failure.
      let code: ErrorCode = error is PersistenceError ? .storageFailed : .eventFailed
      line.string(code.rawValue)
      line.ascii(#","message":"#)
      line.string(String(describing: error))
      line.byte(UInt8(ascii: "}"))
    }
    line.ascii(#","seq":"#)
    line.integer(Int64(clamping: event.sequence))
    line.ascii(#","time":"#)
    line.string(RFC3339.format(milliseconds: event.time))
    line.ascii(#","before":"#)
    line.raw(event.before)
    line.ascii(#","after":"#)
    line.raw(event.after)
    if missed > 0 {
      line.ascii(#","missed":"#)
      line.integer(Int64(missed))
    }
    line.ascii("}\n")
    return line.bytes
  }
}
