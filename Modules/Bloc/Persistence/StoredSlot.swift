#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a bloc's core lies: the core's mutex, which guards a persister's progress too
/// (``PersisterCore/withProgress(_:)``), and the fields that a change made straight through
/// (``BlocBase/applyQuietly(recordHistory:cause:_:)``) and a write's end
/// (``Persister/publish(_:)``) read or set, found once, when the bloc is made.
///
/// Both run unspecialised (in the bloc's module, or the persister's code), where reaching the
/// core (a `Core`, nested in the generic `BlocBase`) would cost a runtime metadata lookup per
/// use, about 330 instructions: `Core`'s size places the lock's mutex, its layout the fields.
/// Through these addresses it costs none. They stay valid as long as the slot: the core is one
/// allocation (``Locked``'s) that never moves, and the slot holds it. Not generic, for the
/// same reason: the states are reached through their own type, the bloc's generic argument.
struct StoredSlot: @unchecked Sendable {  // pointers into the core, touched under its mutex
  /// The core's storage, held so that the addresses stay valid for whoever holds the slot
  /// (the persister, which a write in flight may hold after the bloc is gone).
  let core: AnyObject
  let mutex: UnsafeMutablePointer<pthread_mutex_t>
  /// `Core.storedSequence`.
  let sequence: UnsafeMutablePointer<UInt64?>
  /// `Core.storedState`, a `State`.
  let state: UnsafeMutableRawPointer
  /// `Core.hasListeners`.
  let hasListeners: UnsafePointer<Bool>
  /// `Core.state`, a `State`: the current one.
  let current: UnsafeMutableRawPointer
  /// `Core.sequence`: the current state's number.
  let currentSequence: UnsafeMutablePointer<UInt64>
  /// `Core.isClosed`.
  let isClosed: UnsafePointer<Bool>
  /// `Core.hasTaps`.
  let hasTaps: UnsafePointer<Bool>
  /// `Core.hasWaiters`.
  let hasWaiters: UnsafePointer<Bool>

  init<State>(_ core: Locked<BlocBase<State>.Core>) {
    typealias Core = BlocBase<State>.Core
    let (value, mutex) = core.storage.withUnsafeMutablePointers {
      (UnsafeMutableRawPointer($0), $1)
    }
    func field(_ path: PartialKeyPath<Core>) -> UnsafeMutableRawPointer {
      value + MemoryLayout<Core>.offset(of: path)!  // stored properties: never nil
    }
    func flag(_ path: PartialKeyPath<Core>) -> UnsafePointer<Bool> {
      UnsafePointer(field(path).assumingMemoryBound(to: Bool.self))
    }
    self.core = core.storage
    self.mutex = mutex
    sequence = field(\.storedSequence).assumingMemoryBound(to: UInt64?.self)
    state = field(\.storedState)
    hasListeners = flag(\.hasListeners)
    current = field(\.state)
    currentSequence = field(\.sequence).assumingMemoryBound(to: UInt64.self)
    isClosed = flag(\.isClosed)
    hasTaps = flag(\.hasTaps)
    hasWaiters = flag(\.hasWaiters)
  }

  /// Whether anyone besides the bloc watches its changes: a test tap, a listener, a waiting
  /// subscriber. Under the mutex.
  var isWatched: Bool { hasTaps.pointee || hasListeners.pointee || hasWaiters.pointee }
}
