import Foundation

/// A state that can outlive the process.
///
/// Each stored value carries ``schemaVersion``. When a stored value is older, ``migrate(from:data:decoder:)``
/// turns it into the current shape:
///
/// ```swift
/// struct CounterState: PersistableState {
///   static let schemaVersion = 2
///   var count: Int
///
///   static func migrate(from version: Int, data: Data, decoder: JSONDecoder) throws -> Self {
///     // Version 1 stored a bare integer.
///     let old = try decoder.decode(Stored<Int>.self, from: data)
///     return CounterState(count: old.state)
///   }
/// }
/// ```
public protocol PersistableState: Codable, Sendable, Equatable {
  /// The version of the stored shape. Bump it whenever the `Codable` shape changes.
  static var schemaVersion: Int { get }
  /// Reads a value stored by an older `schemaVersion`. The default refuses.
  static func migrate(from version: Int, data: Data, decoder: JSONDecoder) throws -> Self
}

extension PersistableState {
  public static var schemaVersion: Int { 1 }
  public static func migrate(from version: Int, data: Data, decoder: JSONDecoder) throws -> Self {
    throw PersistenceError.noMigration(from: version, to: schemaVersion)
  }
}

/// The stored form of a state: `{"schemaVersion": 1, "seq": 12, "state": …}`, where `seq` is the
/// bloc's ``BlocBase/sequence`` for that state (older values have none: 0). Decode an older
/// value's `Stored<OldShape>` inside a migration.
public struct Stored<Value: Codable>: Codable {
  public let schemaVersion: Int
  public let state: Value

  public init(schemaVersion: Int, state: Value) {
    self.schemaVersion = schemaVersion
    self.state = state
  }
}

/// What a bloc does with a stored value it cannot read (corrupt, from a newer version, or with
/// no migration). Neither policy ever overwrites the stored value silently.
public enum UnreadablePolicy: Sendable, Equatable {
  /// Move the value aside (the storage renames it), report it, and start from the initial state.
  case keepAside
  /// Leave the value where it is, report it, and run without persisting until restarted.
  case stopPersisting
}

/// Why persistence did not go as planned.
public enum PersistenceError: Error, Equatable, Sendable, CustomStringConvertible {
  case noMigration(from: Int, to: Int)
  case newerVersion(found: Int, supported: Int)
  case unreadable(key: String, reason: String, keptAs: String?)
  case writeFailed(key: String, reason: String)
  case invalidKey(String)

  public var description: String {
    switch self {
    case .noMigration(let from, let to):
      return
        "no migration from schema version \(from) to \(to); implement migrate(from:data:decoder:)"
    case .newerVersion(let found, let supported):
      return "stored schema version \(found) is newer than the supported \(supported)"
    case .unreadable(let key, let reason, let keptAs):
      let kept =
        keptAs.map { "; the stored value was kept aside as \($0)" }
        ?? "; the stored value was left untouched and changes are not persisted"
      return "cannot read stored state '\(key)': \(reason)\(kept)"
    case .writeFailed(let key, let reason):
      return "cannot save state '\(key)': \(reason)"
    case .invalidKey(let key):
      return
        "invalid storage key '\(key)': use 1 to 245 bytes (255 in a JournalStorage) of ASCII "
        + "letters, digits, '.', '-' and '_', not starting with '.'"
    }
  }
}

/// How a bloc saves and restores its state: a storage, a key, and a policy.
///
/// ```swift
/// let storage = try FileStorage(directory: stateDirectory)
/// super.init(initialState: CounterState(), persistence: Persistence(storage: storage, key: "counter"))
/// ```
public struct Persistence<State: Sendable>: Sendable {
  public let storage: any BlocStorage
  public let key: String
  public let unreadable: UnreadablePolicy
  /// Whether the initial state is stored at creation when nothing is stored yet, so a computed
  /// initial state (a generated id, a timestamp) survives restarts.
  public let storesInitialState: Bool
  /// The schema version states are stored with (``PersistableState/schemaVersion``).
  let schemaVersion: Int
  /// `,"schemaVersion":N,"seq":`, the stored record's part for ``schemaVersion``
  /// (``StoredRecord/version(_:)``).
  let version: [UInt8]
  /// How the states are written (themselves, or `JSONEncoder`), decided once.
  let text: StateText
  let decode: @Sendable (Data) throws -> Restored<State>

  /// Reads the stored state: nil when nothing is stored; throws when it cannot be read.
  public func load() throws -> State? { try loadRestored()?.state }

  /// Reads the stored state with its sequence number.
  func loadRestored() throws -> Restored<State>? {
    guard let data = try storage.read(key) else { return nil }
    return try decode(data)
  }

  /// Decodes one stored value (the current one, or one of a journal's retained history),
  /// migrating an older schema version.
  func decodeStored(_ data: Data) throws -> Restored<State> { try decode(data) }

  /// Appends the stored text of the state at `state` (a `State`) and what is told with it
  /// (``StoredChange``, its event written by `events` when it can) to `bytes`; returns where
  /// the state's own JSON lies in it (``BlocBase/keepStoredText()``). The state is read
  /// where it lies: the persister's code, unspecialised, would copy it through its type's
  /// value witnesses to pass it by value.
  func encode(
    at state: UnsafeRawPointer, _ change: StoredChange, _ events: OwnJSON?,
    into bytes: inout [UInt8]
  ) throws -> Range<Int> {
    try StoredRecord.write(
      version: version, change: change, events: events, into: &bytes, state: state, text: text)
  }

  /// Reads the stored state applying ``unreadable`` on failure; when nothing (readable) is
  /// stored and ``storesInitialState`` is set, stores `initial`.
  ///
  /// A key the storage refuses (``BlocStorage/checkKey(_:)``) is the issue, and nothing is
  /// read or stored; the bloc keeps persisting, so that each change it makes fails with the
  /// same refusal (the storage's writes refuse the key) and is undone: running on without
  /// persistence would show changes that are never stored, and read as a store that forgot.
  func restore(
    initial: State
  ) -> (
    state: Restored<State>?, issue: PersistenceError?, keepPersisting: Bool
  ) {
    do {
      try storage.checkKey(key)
    } catch {
      return (nil, error as? PersistenceError ?? .invalidKey(key), true)
    }
    let restored = read()
    guard restored.state == nil, restored.keepPersisting, storesInitialState else {
      return restored
    }
    do {
      var bytes: [UInt8] = []
      _ = try withUnsafePointer(to: initial) { initial in
        try encode(at: UnsafeRawPointer(initial), StoredChange(sequence: 0), nil, into: &bytes)
      }
      try storage.write(key, Data(bytes))
    } catch {
      let failure =
        error as? PersistenceError ?? .writeFailed(key: key, reason: String(describing: error))
      return (nil, restored.issue ?? failure, true)
    }
    return restored
  }

  private func read() -> (state: Restored<State>?, issue: PersistenceError?, keepPersisting: Bool) {
    do {
      return (try loadRestored(), nil, true)
    } catch {
      let reason = String(describing: error)
      switch unreadable {
      case .keepAside:
        do {
          let keptAs = try storage.keepAside(key)
          return (nil, .unreadable(key: key, reason: reason, keptAs: keptAs), true)
        } catch {
          return (nil, .unreadable(key: key, reason: reason, keptAs: nil), false)
        }
      case .stopPersisting:
        return (nil, .unreadable(key: key, reason: reason, keptAs: nil), false)
      }
    }
  }
}

extension Persistence where State: PersistableState {
  /// - Parameters:
  ///   - storage: where the state lives (``FileStorage``, `BlocJournal`'s `JournalStorage`, …).
  ///   - key: the state's name in `storage`, one it accepts (``BlocStorage/checkKey(_:)``):
  ///     in ``FileStorage`` and `JournalStorage`, ASCII letters, digits, `.`, `-` and `_`, not
  ///     starting with `.`. Under a key the storage refuses, the bloc reports
  ///     ``PersistenceError/invalidKey(_:)`` at creation and every change it makes fails.
  ///   - unreadable: what to do with a stored value that cannot be read.
  ///   - storeInitialState: store the initial state at creation when nothing is stored yet, so
  ///     a computed one survives restarts:
  ///
  /// ```swift
  /// struct Install: PersistableState { var id = UUID().uuidString }
  /// final class InstallCubit: Cubit<Install> {
  ///   init(storage: any BlocStorage) {
  ///     super.init(
  ///       initialState: Install(),  // a new id only the very first time
  ///       persistence: Persistence(storage: storage, key: "install", storeInitialState: true))
  ///   }
  /// }
  /// ```
  public init(
    storage: any BlocStorage, key: String, unreadable: UnreadablePolicy = .keepAside,
    storeInitialState: Bool = false
  ) {
    self.storage = storage
    self.key = key
    self.unreadable = unreadable
    self.storesInitialState = storeInitialState
    schemaVersion = State.schemaVersion
    // Decided once: a state that writes its own JSON (a declared one) is stored without any
    // encoder, in the text the daemon also sends; any other through JSONEncoder.
    text = StoredRecord.text(of: State.self)
    version = StoredRecord.version(State.schemaVersion)
    decode = { data in
      let decoder = JSONDecoder()
      let header = try decoder.decode(StoredHeader.self, from: data)
      let version = header.schemaVersion
      let sequence = header.seq ?? 0
      if version == State.schemaVersion {
        let state = try decoder.decode(Stored<State>.self, from: data).state
        return Restored(state: state, sequence: sequence, migrated: false)
      }
      if version > State.schemaVersion {
        throw PersistenceError.newerVersion(found: version, supported: State.schemaVersion)
      }
      let state = try State.migrate(from: version, data: data, decoder: decoder)
      return Restored(state: state, sequence: sequence, migrated: true)
    }
  }
}

/// A stored state read back: the state (migrated when it was stored by an older schema
/// version) and the sequence number stored with it.
struct Restored<State> {
  let state: State
  let sequence: UInt64
  /// Whether it was stored by an older schema version and migrated.
  let migrated: Bool
}

private struct StoredHeader: Decodable {
  let schemaVersion: Int
  let seq: UInt64?
}
