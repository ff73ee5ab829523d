import BlocCore
import Foundation

/// Keeps values in memory and holds every write until the test stores or refuses it: shows
/// what others see of a change while it is being stored.
final class HeldStorage: BlocStorage {
  let inner = InMemoryStorage()
  private let held = Locked<[(key: String, data: Data, done: @Sendable ((any Error)?) -> Void)]>([])

  var writesAsynchronously: Bool { true }

  /// How many writes wait.
  var waiting: Int { held.withLock { $0.count } }

  func write(
    _ key: String, _ data: Data, completion: @escaping @Sendable ((any Error)?) -> Void
  ) {
    held.withLock { $0.append((key, data, completion)) }
  }

  /// Completes every held write: stores it, or refuses it as a full disk does.
  func release(refusing: Bool) {
    let writes = held.withLock { held in
      defer { held = [] }
      return held
    }
    for write in writes {
      if refusing {
        write.done(
          PersistenceError.writeFailed(key: write.key, reason: "No space left on device"))
      } else {
        write.done(Result { try inner.write(write.key, write.data) }.error)
      }
    }
  }

  func read(_ key: String) throws -> Data? { try inner.read(key) }
  func write(_ key: String, _ data: Data) throws { try inner.write(key, data) }
  func remove(_ key: String) throws { try inner.remove(key) }
  func keepAside(_ key: String) throws -> String { try inner.keepAside(key) }
}

extension Result where Failure == any Error {
  /// The error, if it failed.
  fileprivate var error: (any Error)? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
