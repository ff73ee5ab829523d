#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a persisted bloc's newest stored state lies in its core: the core's mutex, which
/// guards its persister's progress too (``PersisterCore/withProgress(_:)``), and the three
/// fields a write's end sets or reads (``Persister/publish(_:)``), found once, when the bloc
/// is made.
///
/// A write ends in the persister's unspecialised code, where reaching the core (a `Core`,
/// nested in the generic `BlocBase`) would cost a runtime metadata lookup per write, about 330
/// instructions: `Core`'s size places the lock's mutex, its layout the fields. Through these
/// addresses it costs none. They stay valid as long as the slot: the core is one allocation
/// (``Locked``'s) that never moves, and the slot holds it. Not generic, for the same reason:
/// the state is reached through its own type, the bloc's generic argument.
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

  init<State>(_ core: Locked<BlocBase<State>.Core>) {
    typealias Core = BlocBase<State>.Core
    let (value, mutex) = core.storage.withUnsafeMutablePointers {
      (UnsafeMutableRawPointer($0), $1)
    }
    func field(_ path: PartialKeyPath<Core>) -> UnsafeMutableRawPointer {
      value + MemoryLayout<Core>.offset(of: path)!  // stored properties: never nil
    }
    self.core = core.storage
    self.mutex = mutex
    sequence = field(\.storedSequence).assumingMemoryBound(to: UInt64?.self)
    state = field(\.storedState)
    hasListeners = UnsafePointer(field(\.hasListeners).assumingMemoryBound(to: Bool.self))
  }

}
