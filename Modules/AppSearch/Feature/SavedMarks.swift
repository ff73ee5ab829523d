import BlocCore
import FeatureKit
import Foundation

/// The persisted part of the search: the marks, stored under
/// ``AppSearchFeature/marksStorageKey`` as
/// `{"schemaVersion":2,"state":{"marks":[{"backend":"packages","id":7,"name":"bash"}]}}`.
///
/// Version 1 stored ids only (`{"marks":[7,42]}`), package ids with 63 bits of their name's
/// hash. Its marks migrate: an id above 2^53 − 1 was a package, and its 53 low bits are its
/// id now (the same hash); a smaller id was an App Store app. Their names are unknown.
struct SavedMarks: PersistableState, DeclaredState {
  var marks: [Mark]

  static var schemaVersion: Int { 2 }

  /// Written and read through its declaration, like the search state that shows the marks.
  static let declaration = StateDeclaration(
    initial: SavedMarks(marks: []),
    .field("marks", \.marks, "The marks, by ascending id.", type: .array(.object(Mark.shape))))

  static func migrate(from version: Int, data: Data, decoder: JSONDecoder) throws -> SavedMarks {
    guard version == 1 else { throw PersistenceError.noMigration(from: version, to: 2) }
    let old = try decoder.decode(Stored<IDsOnly>.self, from: data).state
    return SavedMarks(marks: old.marks.map(Self.migrated))
  }

  /// A version 1 mark (an id only) as a mark.
  static func migrated(_ id: Int64) -> Mark {
    if id > App.maximumID {
      let packageID = id & App.maximumID
      return Mark(id: packageID == 0 ? 1 : packageID, name: nil, backend: .packages)
    }
    return Mark(id: id, name: nil, backend: .itunes)
  }

  /// Version 1's shape.
  struct IDsOnly: Codable { var marks: [Int64] }
}
