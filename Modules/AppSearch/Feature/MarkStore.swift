import BlocCore

/// The marks' own storage, and its rule: store, then show. The marks persist apart from the
/// search state (whose results are not worth storing), so a mark change is made to the state
/// only once its marks are stored. A change the storage refused is never shown nor built upon,
/// and the saved marks return to the stored ones (a persisted cubit rolls back), so it is never
/// stored later either.
struct MarkStore: Sendable {
  private let saved: Cubit<SavedMarks>

  /// Restores the marks stored under ``AppSearchFeature/marksStorageKey``.
  init(storage: any BlocStorage) {
    saved = Cubit<SavedMarks>(
      initialState: SavedMarks(marks: []),
      persistence: Persistence(storage: storage, key: AppSearchFeature.marksStorageKey))
  }

  /// The stored marks.
  var marks: [Mark] { saved.state.marks }

  /// Makes `change` to the marks of `emit`'s state: stores the new marks, then shows them.
  /// Throws what `change` throws (nothing changes), or the storage's error (nothing shows).
  /// Mark events run one at a time, in order, and only they change the marks: nothing changes
  /// them meanwhile.
  func change(
    _ emit: Emitter<AppSearchState>, _ change: (inout AppSearchState) throws -> Void
  ) async throws {
    var next = emit.state
    try change(&next)
    let marks = next.marks
    guard marks != emit.state.marks, emit.isActive else { return }
    try saved.emit(SavedMarks(marks: marks))
    if let error = await saved.waitUntilStored() { throw error }
    // Closed while storing: the event ends cancelled; the stored marks show after a restart.
    guard emit.isActive else { return }
    emit.update { $0.marks = marks }
  }
}
