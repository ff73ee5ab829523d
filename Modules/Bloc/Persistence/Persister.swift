import Foundation

/// Writes a bloc's latest state in the background and tells waiters when a change is stored
/// (``PersisterCore``): the part that holds, writes and shows states of the bloc's type.
///
/// Its methods may run unspecialised (the bloc calls them from its generic code, the sink
/// through ``StagedState``); they touch `State` only through its own metadata (the class's generic
/// argument), never through a generic type built on it (an optional, a tuple, a nested struct),
/// whose metadata the runtime would look up on every call.
final class Persister<State: Sendable & Equatable>: PersisterCore,
  @unchecked Sendable  // states touched under the bloc's lock, or by the write in flight alone
{
  private let persistence: Persistence<State>
  // The persistence's record part and state writer, kept here: a method of `Persistence`
  // called from this unspecialised code would look up `Persistence<State>`'s runtime
  // metadata first (about 330 instructions).
  private let version: [UInt8]
  private let text: StateText
  // The states live behind pointers of their own, allocated once: a class's stored variables
  // are checked for exclusive access at run time on every change (a runtime call and a
  // thread-local lookup each), which the lock (or the write in flight) already guarantees.
  /// The pending state (``PersisterCore/Progress/pending``): under the bloc's lock.
  private let pending: UnsafeMutablePointer<State>
  /// The state of the write in flight: set under the lock when it is taken, then read by that
  /// write alone (no other write is taken before it ends).
  private let inFlight: UnsafeMutablePointer<State>
  /// The states of the backlog's changes (``PersisterCore/Progress/backlog``), in its order:
  /// under the bloc's lock.
  private let backlog: UnsafeMutablePointer<StateBuffer>
  /// The states of the changes the write in flight took (``PersisterCore/Taken/changes``), in
  /// their order: like `inFlight`.
  private let earlier: UnsafeMutablePointer<StateBuffer>

  /// `state`: the bloc's state now (no change is pending yet); `slot`: the bloc's lock and
  /// stored state.
  init(
    _ persistence: Persistence<State>, durable sequence: UInt64, state: State, slot: StoredSlot
  ) {
    self.persistence = persistence
    version = persistence.version
    text = persistence.text
    pending = .allocate(capacity: 1)
    pending.initialize(to: state)
    inFlight = .allocate(capacity: 1)
    inFlight.initialize(to: state)
    backlog = .allocate(capacity: 1)
    backlog.initialize(to: StateBuffer())
    earlier = .allocate(capacity: 1)
    earlier.initialize(to: StateBuffer())
    super.init(
      key: persistence.key,
      sink: (persistence.storage as? any StateSink) ?? WriteThrough(persistence),
      historyLimit: (persistence.storage as? any ChangeHistoryStorage)?.historyLimit ?? 0,
      durable: sequence, slot: slot)
  }

  deinit {
    backlog.pointee.free(State.self)
    earlier.pointee.free(State.self)
    backlog.deinitialize(count: 1).deallocate()
    earlier.deinitialize(count: 1).deallocate()
    pending.deinitialize(count: 1).deallocate()
    inFlight.deinitialize(count: 1).deallocate()
  }

  /// The values the storage keeps for this bloc, oldest first.
  func retainedChanges() -> [Data] {
    (persistence.storage as? any ChangeHistoryStorage)?.history(persistence.key) ?? []
  }

  var schemaVersion: Int { persistence.schemaVersion }

  /// The state in a stored value (migrated when older).
  func decode(_ data: Data) throws -> State { try persistence.decodeStored(data).state }

  /// Removes the stored value (``BlocBase/clearStoredState()``).
  func removeStored() throws {
    do {
      try persistence.storage.remove(key)
    } catch {
      throw Self.failure(key, error)
    }
  }

  // MARK: Changes

  /// Makes `state`, the bloc `owner`'s change number `sequence`, the one the next write stores;
  /// true when the persister must now stage itself with the sink (``stageWithSink()``, outside
  /// the bloc's lock). Called under the bloc's lock (`BlocBase.apply`), which guards the
  /// progress: changes arrive in order, and take no lock of their own.
  func claim(_ state: State, sequence: UInt64, owner: BlocBase<State>) -> Bool {
    makePending(state, sequence: sequence, owner: owner, in: &progress)
  }

  /// ``claim(_:sequence:owner:)``, and notes the change with its cause and the time now for
  /// the write that stores it (when ``keepsEveryChange``). Under the bloc's lock.
  func recordAndClaim(
    _ state: State, sequence: UInt64, cause: ChangeCause, owner: BlocBase<State>
  ) -> Bool {
    progress.backlog.append(StoredChange(sequence: sequence, cause: cause, time: Self.now()))
    backlog.pointee.append(state)
    return makePending(state, sequence: sequence, owner: owner, in: &progress)
  }

  /// ``recordAndClaim(_:sequence:cause:owner:)`` for a change that `event` made.
  func recordAndClaim<Event: Sendable>(
    _ state: State, sequence: UInt64, event: Event, owner: BlocBase<State>
  ) -> Bool {
    progress.backlog.append(StoredChange(sequence: sequence, event: event, time: Self.now()))
    backlog.pointee.append(state)
    return makePending(state, sequence: sequence, owner: owner, in: &progress)
  }

  /// Under the lock: `state` becomes the pending one unless the change is refused (older than
  /// a rollback or a newer change); true when the persister must now stage itself.
  private func makePending(
    _ state: State, sequence: UInt64, owner: BlocBase<State>, in progress: inout Progress
  ) -> Bool {
    let claim = progress.claim(sequence, owner: owner)
    if claim != .refused { pending.pointee = state }
    return claim == .stages
  }

  // MARK: The write

  override func takeStates(backlog count: Int) {
    inFlight.pointee = pending.pointee
    earlier.pointee.removeAll(State.self)
    if count == backlog.pointee.count {
      earlier.pointee.swap(with: &backlog.pointee)  // all of them, usually: none moved one by one
    } else {
      backlog.pointee.removeFirst(count, moving: count, to: &earlier.pointee, as: State.self)
    }
  }

  override func dropStates(backlog count: Int) {
    // Nothing is moved: not to `earlier`, which the write in flight may be reading.
    var none = StateBuffer()
    backlog.pointee.removeFirst(count, to: &none, as: State.self)
    none.free(State.self)
  }

  override func encode(
    earlier index: Int?, _ change: StoredChange, _ events: OwnJSON?,
    into bytes: inout [UInt8]
  ) throws -> Range<Int> {
    // Each state read where it lies (a state passed by value would be copied first).
    let state =
      index.map { earlier.pointee.address(at: $0, as: State.self) } ?? UnsafeRawPointer(inFlight)
    return try StoredRecord.write(
      version: version, change: change, events: events, into: &bytes, state: state, text: text)
  }

  override func publish(_ sequence: UInt64) -> Bool {
    // Never an older state after a newer one.
    guard let stored = slot.sequence.pointee, sequence > stored else { return false }
    slot.sequence.pointee = sequence
    slot.state.assumingMemoryBound(to: State.self).pointee = inFlight.pointee
    return slot.hasListeners.pointee
  }

  override func tellListeners(_ sequence: UInt64, owner: AnyObject) {
    unsafeDowncast(owner, to: BlocBase<State>.self).tellStored(sequence, inFlight.pointee)
  }

  override func failed(_ failure: PersistenceError, owner: AnyObject) {
    let bloc = unsafeDowncast(owner, to: BlocBase<State>.self)
    bloc.reportError(failure)
    bloc.rollBack(failure)
  }
}
