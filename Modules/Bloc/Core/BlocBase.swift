import Synchronization

/// What ``Cubit`` and ``Bloc`` share: a state readable at any time, a stream of states,
/// hooks and observers, optional undo/redo and persistence, and `close()`.
open class BlocBase<State: Sendable & Equatable>: @unchecked Sendable {  // state behind locks
  /// A test tap (``tap(_:)``).
  struct TapEntry {
    fileprivate let token: ObserverToken
    let tap: @Sendable (Tap<State>) -> Void
  }

  struct Core {
    var state: State
    var sequence: UInt64 = 0
    fileprivate(set) var isClosed = false
    var waiters: [Waiter] = [] {
      didSet { hasWaiters = !waiters.isEmpty }
    }
    fileprivate(set) var taps: [TapEntry] = [] {
      didSet { hasTaps = !taps.isEmpty }
    }
    var listeners: [Listener<State>] = [] {
      didSet { hasListeners = !listeners.isEmpty }
    }
    /// `!listeners.isEmpty`, readable from unspecialised code without the array's metadata
    /// (``StoredSlot``), as the two below.
    private(set) var hasListeners = false
    /// `!waiters.isEmpty`.
    private(set) var hasWaiters = false
    /// `!taps.isEmpty`.
    private(set) var hasTaps = false
    /// The newest stored state's number, for a persisted bloc; nil without persistence.
    fileprivate(set) var storedSequence: UInt64?
    /// The newest stored state, for a persisted bloc: what listeners see (BlocBase+Persistence).
    /// Without persistence the initial state, never read. Kept apart from its number, not as a
    /// `StateUpdate<State>?`: the writer publishes a stored state from unspecialised code,
    /// where each of those generic types costs a runtime metadata lookup per change.
    fileprivate(set) var storedState: State
    /// The newest stored state with its number, for a persisted bloc.
    var stored: StateUpdate<State>? {
      guard let storedSequence else { return nil }
      return StateUpdate(sequence: storedSequence, state: storedState)
    }
    /// The sequence number under which the stored state is the current one too, with nothing
    /// on its way to storage, although `stored` has an older number: set by a rollback
    /// (BlocBase+Persistence), outdated by the next change.
    var storedIsCurrentAt: UInt64?

    fileprivate init(state: State) {
      self.state = state
      self.storedState = state
    }
  }

  let core: Locked<Core>
  /// Where the core's fields lie, for code that runs unspecialised (``StoredSlot``).
  let slot: StoredSlot
  /// The undo and redo stacks, when the bloc keeps history: under the core's lock.
  let history: History<State>?
  /// Guarded by the core's lock (``PersisterCore``): its methods called under `core.withLock`
  /// take no lock.
  let persister: Persister<State>?
  /// Whether changes are stored (`persister != nil`).
  let isPersisted: Bool
  /// Whether each change is noted with its cause for the storage's history
  /// (``Persister/keepsEveryChange``).
  let keepsEveryChange: Bool
  /// Numbers the subscribers' waits, without taking the state's lock.
  let waiterIDs = Atomic<UInt64>(0)
  /// The sequence as of the last change: lets a subscriber that fell behind see it without
  /// waiting (a hint; the state's lock decides).
  let published: PublishedSequence
  /// This bloc's own observers (``addObserver(_:)``).
  private let ownObservers = ObserverList()

  /// Set when a stored state could not be restored at creation (see ``UnreadablePolicy``), or
  /// to ``PersistenceError/invalidKey(_:)`` when the storage refuses the key (then every change
  /// fails with it, see ``BlocStorage/checkKey(_:)``).
  public let restoreIssue: PersistenceError?

  /// Creates the bloc with `initialState`, or with the stored state when `persistence` has one.
  ///
  /// - Parameters:
  ///   - initialState: the state when nothing is stored.
  ///   - history: keeps past states for ``undo()`` and ``redo()``; nil (the default) keeps none.
  ///   - persistence: saves every change and restores the state at creation.
  public init(
    initialState: State, history: HistoryLimit? = nil, persistence: Persistence<State>? = nil
  ) {
    var state = initialState
    var issue: PersistenceError?
    var keepPersisting = persistence != nil
    // The sequence continues from the stored state's, across restarts.
    var stored: UInt64 = 0
    var migrated = false
    if let persistence {
      let restored = persistence.restore(initial: initialState)
      if let found = restored.state {
        state = found.state
        stored = found.sequence
        migrated = found.migrated
      }
      issue = restored.issue
      keepPersisting = restored.keepPersisting
    }
    var initialCore = Core(state: state)
    initialCore.sequence = stored
    core = Locked(initialCore)
    slot = StoredSlot(core)
    self.history = history.map { History(limit: $0) }
    restoreIssue = issue
    var migration: Persister<State>?
    if let persistence, keepPersisting {
      // The core's stored state, reached without `Core`'s metadata by the persister's
      // writes, and its lock, which guards the persister's progress too (``StoredSlot``).
      let persister = Persister(persistence, durable: stored, state: state, slot: slot)
      self.persister = persister
      isPersisted = true
      keepsEveryChange = persister.keepsEveryChange
      core.withLock { core in
        core.storedSequence = stored
        core.storedState = state
        // A state upgraded from an older schema version is a change of its own, stored now.
        if migrated { core.sequence = stored &+ 1 }
      }
      if migrated { migration = persister }
    } else {
      persister = nil
      isPersisted = false
      keepsEveryChange = false
    }
    published = PublishedSequence(core.withLock { $0.sequence })
    CreationWatch.onCreate?(self)
    for entry in BlocObservers.observers(for: .create) { entry.observer.onCreate(self) }
    if let issue { reportError(issue) }
    if let migration {
      let sequence = stored &+ 1
      let keepsEveryChange = keepsEveryChange
      // Under the lock that guards the persister's progress, as every change.
      let stage = core.withLock { _ in
        keepsEveryChange
          ? migration.recordAndClaim(state, sequence: sequence, cause: .migration, owner: self)
          : migration.claim(state, sequence: sequence, owner: self)
      }
      if stage { migration.stageWithSink() }
    }
  }

  /// A name for logs and errors; the type's name unless overridden.
  open var name: String { String(describing: type(of: self)) }

  /// The current state.
  public final var state: State { core.withLock { $0.state } }

  /// The number of the current state: grows by one with every change. A persisted bloc stores
  /// it with the state and continues from it when created again (a fresh store starts at 0).
  public var sequence: UInt64 { core.withLock { $0.sequence } }

  /// The current state with its sequence number, read together. A persisted bloc's current
  /// state may not be stored yet: ``storedSnapshot`` is what it shows others.
  public var currentSnapshot: StateUpdate<State> {
    core.withLock { StateUpdate(sequence: $0.sequence, state: $0.state) }
  }

  /// The sequence number of the newest change, read without the state's lock: a host that
  /// keeps something derived from ``storedSnapshot`` may use it while this stays the number
  /// of the snapshot it was derived from, if that snapshot was current
  /// (``storedSnapshotAndIsCurrent``): no stored state changes without a newer change first.
  package var newestSequence: UInt64 { published.sequence.load(ordering: .relaxed) }

  /// ``storedSnapshot``, and the sequence number under which it is the current state too (no
  /// change on its way to storage, none refused since), read together: nil when it is not.
  /// That number is ``newestSequence`` until the next change; it is the snapshot's own, or,
  /// after a rollback to the stored state, the rollback's.
  package var storedSnapshotAndIsCurrent: (snapshot: StateUpdate<State>, currentAt: UInt64?) {
    core.withLock { core in
      guard let stored = core.stored else {
        return (StateUpdate(sequence: core.sequence, state: core.state), core.sequence)
      }
      let isCurrent = stored.sequence == core.sequence || core.storedIsCurrentAt == core.sequence
      return (stored, isCurrent ? core.sequence : nil)
    }
  }

  /// Whether ``close()`` was called.
  public var isClosed: Bool { core.withLock { $0.isClosed } }

  // MARK: Hooks

  /// Called for every change, before subscribers see the new state. Call `super` when overriding
  /// to keep observers informed.
  open func onChange(_ change: Change<State>) {
    for entry in observers(for: .change) { entry.observer.onChange(self, change: change) }
  }

  /// Called for every error: a failing handler (as ``HandlerFailure``), a dropped emit, a
  /// persistence problem. The bloc keeps working. Call `super` to keep observers informed.
  open func onError(_ error: any Error) {
    for entry in observers(for: .error) { entry.observer.onError(self, error: error) }
  }

  /// Called once when the bloc closes. Call `super` to keep observers informed.
  open func onClose() {
    for entry in observers(for: .close) { entry.observer.onClose(self) }
  }

  // MARK: Observers

  /// Adds an observer of this bloc only.
  @discardableResult
  public func addObserver(_ observer: any BlocObserver) -> ObserverToken {
    ownObservers.add(observer)
  }

  public func removeObserver(_ token: ObserverToken) { ownObservers.remove(token) }

  /// The hooks some observer of this bloc wants, global or its own (one atomic load per list).
  final var observedHooks: BlocHooks {
    BlocObservers.wanted.union(ownObservers.wanted)
  }

  /// The observers that want `hook`: global ones, then this bloc's own.
  func observers(for hook: BlocHooks) -> [ObserverEntry] {
    // Usually none: two atomic loads say so.
    guard observedHooks.contains(hook) else { return [] }
    let global = BlocObservers.observers(for: hook)
    let own = ownObservers.observers(for: hook)
    if own.isEmpty { return global }
    return global.isEmpty ? own : global + own
  }

  /// Every error goes through here: taps first (they cannot be overridden away), then `onError`.
  func reportError(_ error: any Error) {
    for entry in core.withLock({ $0.taps }) { entry.tap(.error(error)) }
    onError(error)
  }

  /// Sees every change and error of this bloc whatever its hooks do; for test harnesses.
  @_spi(Testing) @discardableResult
  public func tap(_ tap: @escaping @Sendable (Tap<State>) -> Void) -> ObserverToken {
    let token = ObserverToken()
    core.withLock { $0.taps.append(TapEntry(token: token, tap: tap)) }
    return token
  }

  /// Removes a tap added with ``tap(_:)``.
  @_spi(Testing) public func untap(_ token: ObserverToken) {
    core.withLock { $0.taps.removeAll { $0.token == token } }
  }

  /// Replaces the state without any hook, history or persistence; for test harnesses.
  @_spi(Testing) public func seed(_ state: State) {
    core.withLock { $0.state = state }
  }

  /// Waits until every change made so far is stored (a no-op without persistence). Returns the
  /// error of the last write if it failed.
  @discardableResult
  public func waitUntilStored() async -> PersistenceError? {
    guard let persister else { return nil }
    return await persister.waitUntilStored(sequence)
  }

  /// Waits until all work started so far is finished. A cubit's work is its own methods', so
  /// this returns at once; ``Bloc`` waits for its handlers.
  open func settled() async {}

  /// The time until this bloc's nearest pending deadline; nil for a cubit.
  open var nextDelay: Duration? { nil }

  // MARK: Closing

  /// Ends every subscription and tells observers. Further emits throw. Idempotent.
  open func close() async {
    guard markClosed() else { return }
    await finishClosing()
  }

  /// Marks the bloc closed; true only for the first call.
  func markClosed() -> Bool {
    core.withLock { core in
      if core.isClosed { return false }
      core.isClosed = true
      return true
    }
  }

  func finishClosing() async {
    let waiters = core.withLock { core in
      let waiters = core.waiters
      core.waiters = []
      core.listeners = []
      return waiters
    }
    for waiter in waiters { waiter.continuation.resume(returning: nil) }
    await waitUntilStored()
    onClose()
  }

}

/// What a test tap sees.
@_spi(Testing) public enum Tap<State: Sendable>: Sendable {
  case change(Change<State>)
  case error(any Error)
}
