/// What a persisted bloc shows the outside world: only stored states.
///
/// The bloc's own ``BlocBase/state`` runs ahead of storage while a write is in flight (handlers
/// build on it). What is shown to others, ``storedSnapshot`` and listeners, advances only once
/// a state is stored. When a write fails the bloc returns to its last stored state, so a change
/// that could not be stored is never shown, never built upon, and never stored later.
extension BlocBase {
  /// The newest stored state with its sequence number; for a bloc without persistence, the
  /// current state. What a server should tell its clients.
  ///
  /// ```swift
  /// let update = bloc.storedSnapshot
  /// print(update.sequence, update.state)
  /// ```
  public var storedSnapshot: StateUpdate<State> {
    core.withLock { $0.stored ?? StateUpdate(sequence: $0.sequence, state: $0.state) }
  }

  /// Removes this bloc's stored state once the changes made so far are stored; the bloc keeps
  /// its current state, and its next change is stored again. After a restart without further
  /// changes the bloc starts from its initial state. A no-op without persistence.
  ///
  /// ```swift
  /// try await settings.clearStoredState()  // "forget my settings" on the next start
  /// ```
  public func clearStoredState() async throws {
    guard let persister else { return }
    _ = await persister.waitUntilStored(sequence)
    try persister.removeStored()
  }

  /// Keeps the JSON of each state written for storage, from now on, with where the changes
  /// stand (``storeProgressAndText``), so that a host showing states as JSON takes those bytes
  /// instead of writing the state a second time. The JSON is the state's own
  /// (``WritesJSON``), or `JSONEncoder`'s. Nothing without persistence.
  ///
  /// ```swift
  /// bloc.keepStoredText()
  /// let (progress, text) = bloc.storeProgressAndText
  /// ```
  package func keepStoredText() {
    persister?.keepStoredText()
  }

  /// A listener added since sees this state or a newer one from `listen` (and ignores this
  /// one), one removed since may miss it: as if either happened a moment earlier or later.
  /// Called by the persister's unspecialised code once the write that stored `state` showed it
  /// (``Persister/publish(_:)``), only when the bloc has listeners: each StateUpdate, Array or
  /// Listener type named here costs a runtime metadata lookup from there.
  @inline(never)
  func tellStored(_ sequence: UInt64, _ state: State) {
    let update = StateUpdate(sequence: sequence, state: state)
    for listener in core.withLock({ $0.listeners }) { listener.deliver(update) }
  }

  /// Returns to the last stored state after a failed write, as one more change that in-process
  /// observers see; every change so far fails. History is cleared, also when the state is
  /// back at the stored one already (a refused change, then one back): it may hold states that
  /// were never stored, and undoing into one would store a refused change after all.
  ///
  /// The stored state is then the current one again, with nothing on its way to storage: it
  /// says so (``storedSnapshotAndIsCurrent``) under the new sequence number, which it
  /// publishes, so a host keeping something derived from it may keep it again at once.
  func rollBack(_ error: PersistenceError) {
    guard let persister else { return }
    var change: Change<State>?
    var woken = Woken()
    var taps: [TapEntry] = []
    let (sequence, failed) = core.withLock { core -> (UInt64, [StoreWaiter]) in
      let through = core.sequence
      history?.clear()
      if let stored = core.stored, stored.state != core.state {
        change = Change(current: core.state, next: stored.state)
        core.state = stored.state
        core.sequence &+= 1
        woken = takeWaiters(&core, for: stored.state)
        taps = core.taps
      }
      core.storedIsCurrentAt = core.sequence
      published.sequence.store(core.sequence, ordering: .relaxed)
      // Under the lock (which guards the persister's progress too): no change can be made
      // between restoring and abandoning.
      return (core.sequence, persister.abandon(through: through, error))
    }
    for waiter in failed { waiter.notify(error) }
    guard let change else { return }
    for entry in taps { entry.tap(.change(change)) }
    onChange(change)
    woken.resume(returning: StateUpdate(sequence: sequence, state: change.next))
  }
}
