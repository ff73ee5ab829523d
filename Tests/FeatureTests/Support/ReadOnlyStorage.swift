import BlocCore
import Foundation

/// A storage that holds nothing and refuses every write.
struct ReadOnlyStorage: BlocStorage {
  func read(_ key: String) throws -> Data? { nil }
  func write(_ key: String, _ data: Data) throws {
    throw PersistenceError.writeFailed(key: key, reason: "read-only")
  }
  func remove(_ key: String) throws {}
  func keepAside(_ key: String) throws -> String { key }
}
