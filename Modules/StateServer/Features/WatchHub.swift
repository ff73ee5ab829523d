import BlocCore

/// The watchers of one feature, fed by a single fan-out task.
///
/// While anyone watches, one task follows the bloc's `updates` (latest wins, so it never slows
/// the bloc), encodes each state once, builds the push line once, and queues it on every
/// watcher with `Connection.push(_:key:)`, which never blocks: a slow reader's unwritten push is
/// replaced by the newer one, so it sees the latest state with a gap in `seq`.
final class WatchHub: Sendable {
  private struct Watcher {
    let connection: Connection
    /// The latest-wins slot of this watch in the connection's queue.
    let key: String
    /// The last sequence number this watcher was told about (reply or push).
    var seen: UInt64
  }

  private struct State {
    var watchers: [UInt64: Watcher] = [:]
    var task: Task<Void, Never>?
    /// Bumped whenever the task is replaced, so a stopping task's late deliveries are ignored.
    var generation: UInt64 = 0
    /// The newest state the current task delivered, as a ready push line.
    var latest: (seq: UInt64, line: [UInt8])?
    var stopped = false
    var watchCount: UInt64 = 0
  }

  let feature: String
  private let follow:
    @Sendable (_ deliver: @escaping @Sendable (StateSnapshot) -> Void) async -> Void
  private let state = Locked(State())

  init(
    feature: String,
    follow:
      @escaping @Sendable (_ deliver: @escaping @Sendable (StateSnapshot) -> Void) async ->
      Void
  ) {
    self.feature = feature
    self.follow = follow
  }

  /// Starts (or restarts) pushing to `connection` every state newer than `seen`, the
  /// sequence number its watch reply carried. Call after queuing that reply, so no push of
  /// this watch can precede it.
  func watch(_ connection: Connection, seen: UInt64) {
    state.withLock { state in
      guard !state.stopped else { return }
      state.watchCount &+= 1
      var watcher = Watcher(
        connection: connection, key: "\(feature)#\(state.watchCount)", seen: seen)
      // A state the task delivered before this watcher joined, and newer than its reply.
      if let latest = state.latest, latest.seq > seen {
        connection.push(latest.line, key: watcher.key)
        watcher.seen = latest.seq
      }
      state.watchers[connection.id] = watcher
      if state.task == nil { startTask(&state) }
    }
  }

  /// Stops pushing to the connection. Returns whether it was watching. No push of this
  /// feature is queued for the connection after this returns.
  @discardableResult
  func unwatch(_ connectionID: UInt64) -> Bool {
    let (removed, task) = state.withLock { state -> (Bool, Task<Void, Never>?) in
      let removed = state.watchers.removeValue(forKey: connectionID) != nil
      guard state.watchers.isEmpty, let task = state.task else { return (removed, nil) }
      state.task = nil
      state.latest = nil
      state.generation &+= 1
      return (removed, task)
    }
    task?.cancel()
    return removed
  }

  /// How many connections watch this feature.
  var watcherCount: Int { state.withLock { $0.watchers.count } }

  /// Ends every watch (the bloc is closing).
  func stop() {
    let task = state.withLock { state -> Task<Void, Never>? in
      state.stopped = true
      state.watchers = [:]
      state.generation &+= 1
      defer { state.task = nil }
      return state.task
    }
    task?.cancel()
  }

  private func startTask(_ state: inout State) {
    state.generation &+= 1
    let generation = state.generation
    let follow = self.follow
    // Holds the hub until cancelled (last watcher gone) or the bloc closes.
    state.task = Task {
      await follow { snapshot in self.deliver(snapshot, generation: generation) }
    }
  }

  private func deliver(_ snapshot: StateSnapshot, generation: UInt64) {
    let line = ReplyWriter.statePush(feature: feature, snapshot: snapshot)
    state.withLock { state in
      guard state.generation == generation else { return }
      state.latest = (snapshot.seq, line)
      var index = state.watchers.values.startIndex
      while index != state.watchers.values.endIndex {
        if state.watchers.values[index].seen < snapshot.seq {
          let watcher = state.watchers.values[index]
          watcher.connection.push(line, key: watcher.key)
          state.watchers.values[index].seen = snapshot.seq
        }
        state.watchers.values.formIndex(after: &index)
      }
    }
  }
}
