import BlocCore
import Foundation

/// Keeps values in memory and refuses every write while `full` is set, as a full disk does.
final class FullDiskStorage: BlocStorage {
  let inner = InMemoryStorage()
  private let isFull = Locked(false)

  var full: Bool {
    get { isFull.withLock { $0 } }
    set { isFull.withLock { $0 = newValue } }
  }

  /// The stored value of `key` as text; nil when nothing is stored.
  func text(_ key: String) -> String? {
    inner.contents[key].map { String(decoding: $0, as: UTF8.self) }
  }

  func read(_ key: String) throws -> Data? { try inner.read(key) }
  func write(_ key: String, _ data: Data) throws {
    if full { throw PersistenceError.writeFailed(key: key, reason: "No space left on device") }
    try inner.write(key, data)
  }
  func remove(_ key: String) throws { try inner.remove(key) }
  func keepAside(_ key: String) throws -> String { try inner.keepAside(key) }
}
