import BlocCore
import Wire

/// The watchers of one feature, fed by a synchronous bloc listener.
///
/// While anyone watches, a listener (``BlocBase/listen(_:)``) is called on the emitting thread
/// for every change: the state is written once per sequence number, the push line built once
/// and queued on every watcher with `Connection.push(_:key:)`, which never blocks: a slow
/// reader's unwritten push is replaced by the newer one, so it sees the latest state with a
/// gap in `seq`. No task runs and nobody is woken per change.
final class WatchHub: Sendable {
  typealias Deliver = @Sendable (StateSnapshot) -> Void

  private struct Watcher {
    let connection: Connection
    /// The latest-wins slot of this watch in the connection's queue.
    let key: String
    /// The last sequence number this watcher was told about (reply or push).
    var seen: UInt64
    /// For `watch … select`: the part pushed and its value last sent.
    var selection: StateSelection?
    var selected: JSON = .null
  }

  private struct State {
    var watchers: [UInt64: Watcher] = [:]
    /// Whether a listener is installed (or being installed) for the current generation.
    var listening = false
    var token: ObserverToken?
    /// Bumped whenever the listener is replaced, so a stopped listener's late deliveries
    /// are ignored.
    var generation: UInt64 = 0
    /// The newest state the current listener delivered, and its push line.
    var latest: (snapshot: StateSnapshot, line: [UInt8])?
    var stopped = false
    var watchCount: UInt64 = 0
  }

  let feature: String
  private let listen: @Sendable (@escaping Deliver) -> ObserverToken
  private let stopListening: @Sendable (ObserverToken) -> Void
  private let state = Locked(State())

  /// - Parameters:
  ///   - listen: installs a listener that delivers the current state, then every change.
  ///   - stopListening: removes it.
  init(
    feature: String, listen: @escaping @Sendable (@escaping Deliver) -> ObserverToken,
    stopListening: @escaping @Sendable (ObserverToken) -> Void
  ) {
    self.feature = feature
    self.listen = listen
    self.stopListening = stopListening
  }

  /// Starts (or restarts) pushing to `connection` every state newer than `seen`, the
  /// sequence number its watch reply carried; with `selection`, only the selected part, and
  /// only when it differs from the last one sent (`selected`, in the reply). Call after
  /// queuing that reply, so no push of this watch can precede it.
  func watch(
    _ connection: Connection, seen: UInt64, selection: StateSelection? = nil,
    selected: JSON = .null
  ) {
    let start = state.withLock { state -> UInt64? in
      guard !state.stopped else { return nil }
      state.watchCount &+= 1
      var watcher = Watcher(
        connection: connection, key: "\(feature)#\(state.watchCount)", seen: seen,
        selection: selection, selected: selected)
      // A state delivered before this watcher joined, and newer than its reply.
      if let latest = state.latest, latest.snapshot.sequence > seen {
        push(latest.snapshot, latest.line, parsed: nil, to: &watcher)
      }
      state.watchers[connection.id] = watcher
      guard !state.listening else { return nil }
      state.listening = true
      state.generation &+= 1
      return state.generation
    }
    guard let generation = start else { return }
    // Outside the lock: the listener delivers the current state at once, which takes it.
    let token = listen { snapshot in self.deliver(snapshot, generation: generation) }
    let stale = state.withLock { state -> Bool in
      guard state.generation == generation else { return true }
      state.token = token
      return false
    }
    // Every watcher left (or the hub stopped) while the listener was being installed.
    if stale { stopListening(token) }
  }

  /// Stops pushing to the connection. Returns whether it was watching. No push of this
  /// feature is queued for the connection after this returns.
  @discardableResult
  func unwatch(_ connectionID: UInt64) -> Bool {
    let (removed, token) = state.withLock { state -> (Bool, ObserverToken?) in
      let removed = state.watchers.removeValue(forKey: connectionID) != nil
      guard state.watchers.isEmpty, state.listening else { return (removed, nil) }
      return (removed, Self.stop(&state))
    }
    if let token { stopListening(token) }
    return removed
  }

  /// How many connections watch this feature.
  var watcherCount: Int { state.withLock { $0.watchers.count } }

  /// The connections that watch this feature.
  var connectionIDs: Set<UInt64> { state.withLock { Set($0.watchers.keys) } }

  /// Ends every watch (the bloc is closing).
  func stop() {
    let token = state.withLock { state -> ObserverToken? in
      state.stopped = true
      state.watchers = [:]
      return Self.stop(&state)
    }
    if let token { stopListening(token) }
  }

  /// Forgets the listener; returns its token if it was installed.
  private static func stop(_ state: inout State) -> ObserverToken? {
    state.listening = false
    state.latest = nil
    state.generation &+= 1
    defer { state.token = nil }
    return state.token
  }

  private func deliver(_ snapshot: StateSnapshot, generation: UInt64) {
    let line = ReplyWriter.statePush(feature: feature, snapshot: snapshot)
    state.withLock { state in
      guard state.generation == generation else { return }
      if let latest = state.latest, latest.snapshot.sequence >= snapshot.sequence { return }
      state.latest = (snapshot, line)
      // Parsed at most once per state, and only for selecting watchers.
      var parsed: JSON?
      var index = state.watchers.values.startIndex
      while index != state.watchers.values.endIndex {
        if state.watchers.values[index].seen < snapshot.sequence {
          push(snapshot, line, parsed: &parsed, to: &state.watchers.values[index])
        }
        state.watchers.values.formIndex(after: &index)
      }
    }
  }

  /// Queues `snapshot` for `watcher`: the whole state, or the selected part when it changed.
  private func push(
    _ snapshot: StateSnapshot, _ line: [UInt8], parsed: inout JSON?, to watcher: inout Watcher
  ) {
    watcher.seen = snapshot.sequence
    guard let selection = watcher.selection else {
      watcher.connection.push(line, key: watcher.key)
      return
    }
    if parsed == nil { parsed = snapshot.parsed() }
    let value = selection.value(in: parsed ?? .null)
    guard value != watcher.selected else { return }
    watcher.selected = value
    watcher.connection.push(
      ReplyWriter.selectionPush(
        feature: feature, sequence: snapshot.sequence, selection: selection.text, value: value),
      key: watcher.key)
  }

  private func push(
    _ snapshot: StateSnapshot, _ line: [UInt8], parsed: JSON?, to watcher: inout Watcher
  ) {
    var parsed = parsed
    push(snapshot, line, parsed: &parsed, to: &watcher)
  }
}

extension StateSnapshot {
  /// The state as a JSON value (null if its text cannot be read, which the encoder rules out).
  func parsed() -> JSON {
    (try? JSONParser().parse(json)) ?? .null
  }
}
