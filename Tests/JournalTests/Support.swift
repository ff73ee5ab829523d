import BlocCore
import Foundation

/// The persisted counter the journal's tests store (as BlocTests' `Tally`, whose version 1
/// stored a bare integer).
struct Tally: PersistableState {
  static let schemaVersion = 2
  var count: Int

  static func migrate(from version: Int, data: Data, decoder: JSONDecoder) throws -> Tally {
    guard version == 1 else { throw PersistenceError.noMigration(from: version, to: 2) }
    return Tally(count: try decoder.decode(Stored<Int>.self, from: data).state)
  }
}

enum TallyEvent: BlocEvent, Hashable { case increment }

final class TallyBloc: Bloc<TallyEvent, Tally>, @unchecked Sendable {
  init(storage: any BlocStorage) {
    super.init(
      initialState: Tally(count: 0), persistence: Persistence(storage: storage, key: "tally"))
    on(.increment) { _, emit in emit(Tally(count: emit.state.count + 1)) }
  }
}

/// A fresh directory of its own under the system's temporary directory.
func temporaryDirectory() -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "journal-tests-\(UUID().uuidString)")
  try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}
