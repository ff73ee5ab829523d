import BlocCore

/// The persisted part of the search: the marks, stored under
/// ``AppSearchFeature/marksStorageKey`` as `{"schemaVersion":1,"state":{"marks":[7,42]}}`.
struct SavedMarks: PersistableState {
  var marks: [Int64]
}

/// Keeps ``SavedMarks`` in storage with the core's persistence (restore, versions, unreadable
/// values kept aside, coalesced writes), beside the bloc whose results are not worth storing.
final class MarksCubit: Cubit<SavedMarks>, @unchecked Sendable {
  // @unchecked: the library's pattern; BlocBase keeps all mutable state behind its own lock.

  init(storage: any BlocStorage) {
    super.init(
      initialState: SavedMarks(marks: []),
      persistence: Persistence(storage: storage, key: AppSearchFeature.marksStorageKey))
  }

  override var name: String { "AppSearchMarks" }
}
