import Foundation

/// Where persisted states live. Implementations must be safe to call from any thread; calls
/// for one key never overlap.
public protocol BlocStorage: Sendable {
  /// The stored bytes, or nil when nothing is stored under `key`.
  func read(_ key: String) throws -> Data?
  /// Replaces the value atomically: after a crash the old or the new value is there, never a mix.
  func write(_ key: String, _ data: Data) throws
  func remove(_ key: String) throws
  /// Moves the value out of the way without destroying it; returns where it went.
  func keepAside(_ key: String) throws -> String

  /// Throws ``PersistenceError/invalidKey(_:)`` when this storage cannot keep a value under
  /// `key`; its other methods refuse the same keys with the same error. A persisted bloc asks
  /// at creation: under a refused key it reports the error (``BlocBase/restoreIssue``,
  /// ``BlocBase/onError(_:)``), reads nothing, and every change it makes fails with the error
  /// and is undone. Ask it yourself to check a key made at run time before you use it. The
  /// default accepts every key.
  func checkKey(_ key: String) throws

  /// Whether ``write(_:_:completion:)`` returns at once and completes later (a journal that
  /// batches writes). When false (the default) a persisted bloc calls the blocking
  /// ``write(_:_:)`` on a queue of its own.
  var writesAsynchronously: Bool { get }

  /// Stores `data` under `key` and calls `completion` once it is stored (with nil) or cannot
  /// be (with the error). Must not block when ``writesAsynchronously`` is true. The default
  /// calls ``write(_:_:)``.
  func write(_ key: String, _ data: Data, completion: @escaping @Sendable ((any Error)?) -> Void)

  /// Removes every stored value (values kept aside as unreadable stay). Blocs still running
  /// store their next change again. The default throws: a storage that cannot list its keys
  /// removes them one by one with ``remove(_:)``.
  func removeAll() throws
}

extension BlocStorage {
  public var writesAsynchronously: Bool { false }

  public func checkKey(_ key: String) throws {}

  public func removeAll() throws {
    throw PersistenceError.writeFailed(
      key: "*", reason: "\(Self.self) cannot list its keys; remove each with remove(_:)")
  }

  public func write(
    _ key: String, _ data: Data, completion: @escaping @Sendable ((any Error)?) -> Void
  ) {
    do {
      try write(key, data)
      completion(nil)
    } catch {
      completion(error)
    }
  }
}

/// Keeps values in memory; for tests.
public final class InMemoryStorage: BlocStorage {
  private let values = Locked<[String: Data]>([:])

  public init(_ values: [String: Data] = [:]) {
    self.values.withLock { $0 = values }
  }

  /// Everything stored, by key.
  public var contents: [String: Data] { values.withLock { $0 } }

  public func read(_ key: String) throws -> Data? { values.withLock { $0[key] } }
  public func write(_ key: String, _ data: Data) throws { values.withLock { $0[key] = data } }
  public func remove(_ key: String) throws { _ = values.withLock { $0.removeValue(forKey: key) } }

  public func removeAll() throws {
    values.withLock { values in values = values.filter { $0.key.contains(".unreadable-") } }
  }

  public func keepAside(_ key: String) throws -> String {
    values.withLock { values in
      var n = 1
      while values["\(key).unreadable-\(n)"] != nil { n += 1 }
      let aside = "\(key).unreadable-\(n)"
      values[aside] = values.removeValue(forKey: key)
      return aside
    }
  }
}
