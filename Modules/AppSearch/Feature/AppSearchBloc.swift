import BlocCore

/// Searches apps and keeps marks: a `Bloc<AppSearchEvent, AppSearchState>` defined by
/// composition (no subclass).
///
/// ```swift
/// let search = AppSearchBloc(configuration: FixedSearchConfiguration(), storage: storage)
/// search.add(.search("maps"))
/// for await state in search.states where state.activity == .idle { print(state.results) }
/// ```
/// Events are handled in the order they arrive, whatever their type: a `toggleMark` sent right
/// after a `search` sees its results. A newer search cancels the one in flight, and so does a
/// `clear` (the cancelled search's answer never shows). Each search reads the configuration as
/// it starts, and the throttle reads its interval each time it opens a window, so a change
/// applies to the next search. A failed search shows ``SearchActivity/failed(_:)`` and ends
/// `failed`; the bloc keeps working. Only the marks persist (see
/// ``AppSearchFeature/marksStorageKey``); a mark event's outcome arrives once they are stored.
public typealias AppSearchBloc = Bloc<AppSearchEvent, AppSearchState>

extension Bloc where Event == AppSearchEvent, State == AppSearchState {
  /// - Parameters:
  ///   - configuration: read at every search; the daemon's comes from Settings.
  ///   - services: the service per source; `.live` in a host, doubles in tests.
  ///   - clock: drives the throttle; a test clock gives virtual time.
  public convenience init(
    configuration: any SearchConfigurationSource = FixedSearchConfiguration(),
    storage: any BlocStorage, services: AppSearchServices = .live,
    clock: any Clock<Duration> = ContinuousClock()
  ) {
    // The marks persist on their own, beside a state whose results are not worth storing.
    let savedMarks = Cubit<SavedMarks>(
      initialState: SavedMarks(marks: []),
      persistence: Persistence(storage: storage, key: AppSearchFeature.marksStorageKey))
    self.init(
      initialState: AppSearchState(marks: savedMarks.state.marks), clock: clock,
      name: "AppSearchBloc"
    ) { bloc in
      let runner = SearchRunner(configuration: configuration, services: services)
      let throttle = EventTransformer.throttle { configuration.configuration.throttle }
      bloc.on(.search, transformer: throttle) { event, emit in
        guard case .search(let term) = event else { return }
        try await runner.run(term, emit)
      }
      // A blank search changes nothing, so it need not wait for (nor delay) anything.
      bloc.on(.blankSearch, transformer: .concurrent) { _, _ in }
      bloc.on(.marks) { event, emit in
        try emit.update { (state: inout AppSearchState) throws(AppSearchError) in
          if case .toggleMark(let id) = event {
            try state.toggleMark(id)
          } else {
            state.clearMarks()
          }
        }
        guard emit.isActive else { return }
        // Mark events run one at a time in order, so the stored marks follow the state's.
        try savedMarks.emit(SavedMarks(marks: emit.state.marks))
        if let error = await savedMarks.waitUntilStored() { throw error }
      }
      bloc.on(.clear, cancels: [.search]) { _, emit in emit.update { $0.clearSearch() } }
    }
  }
}
