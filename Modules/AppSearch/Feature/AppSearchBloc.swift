import BlocCore

/// Searches apps and keeps marks.
///
/// ```swift
/// let search = AppSearchBloc(configuration: FixedSearchConfiguration(), storage: storage)
/// search.add(.search("maps"))
/// for await state in search.states where state.activity == .idle { print(state.results) }
/// ```
/// Each search reads the configuration as it starts, and the throttle reads its interval each
/// time it opens a window, so a change applies to the next search. A failed search shows
/// ``SearchActivity/failed(_:)`` and ends `failed`; the bloc keeps working. Only the marks
/// persist (see ``AppSearchFeature/marksStorageKey``); a mark event's outcome arrives once they
/// are stored.
public final class AppSearchBloc: Bloc<AppSearchEvent, AppSearchState>, @unchecked Sendable {
  // @unchecked: the library's pattern; Bloc keeps all mutable state behind its own locks, and
  // the one stored property here is an immutable reference to a Sendable cubit.
  private let savedMarks: MarksCubit

  /// - Parameters:
  ///   - configuration: read at every search; the daemon's comes from Settings.
  ///   - services: the service per source; `.live` in a host, doubles in tests.
  ///   - clock: drives the throttle; a test clock gives virtual time.
  public init(
    configuration: any SearchConfigurationSource = FixedSearchConfiguration(),
    storage: any BlocStorage, services: AppSearchServices = .live,
    clock: any Clock<Duration> = ContinuousClock()
  ) {
    let savedMarks = MarksCubit(storage: storage)
    self.savedMarks = savedMarks
    super.init(initialState: AppSearchState(marks: savedMarks.state.marks), clock: clock)
    let edits = StateEdits<AppSearchState>()
    let runner = SearchRunner(configuration: configuration, services: services, edits: edits)
    let throttle = EventTransformer.throttle { configuration.configuration.throttle }
    on(.search, transformer: throttle) { event, emit in
      guard case .search(let term) = event else { return }
      try await runner.run(term, emit)
    }
    // Each in its own line, as before blocs ordered events across kinds; the features engineer
    // settles AppSearch's order (issue 12.1) on the core's `cancels:`.
    on(.blankSearch, transformer: .independent) { _, _ in }
    on(.marks, transformer: .independent) { event, emit in
      let edited = try edits.apply(emit) { (state: inout AppSearchState) throws(AppSearchError) in
        if case .toggleMark(let id) = event { try state.toggleMark(id) } else { state.clearMarks() }
      }
      guard let state = edited else { return }
      // This lane is the only one that changes marks, and it runs one event at a time, so the
      // saved marks follow the state's in order.
      try savedMarks.emit(SavedMarks(marks: state.marks))
      if let error = await savedMarks.waitUntilStored() { throw error }
    }
    on(.clear, transformer: .independent) { _, emit in edits.apply(emit) { $0.clearSearch() } }
  }

  /// Set when the stored marks could not be read at creation (they were kept aside).
  public var marksRestoreIssue: PersistenceError? { savedMarks.restoreIssue }

  /// Closes the bloc, then waits until the marks are stored.
  public override func close() async {
    await super.close()
    await savedMarks.close()
  }
}
