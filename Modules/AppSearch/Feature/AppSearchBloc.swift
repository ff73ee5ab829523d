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
/// ``AppSearchFeature/marksStorageKey``): a mark event changes the state only once its marks
/// are stored, and a change the storage refuses fails the event and changes nothing.
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
        // Store, then show: the marks persist apart from the state, so a change is made to
        // the state only once its marks are stored. A change the storage refused is never
        // shown nor built upon, and the saved marks return to the stored ones (a persisted
        // cubit rolls back), so it is never stored later either. Mark events run one at a
        // time, in order, and only they change the marks: nothing changes them meanwhile.
        var next = emit.state
        if case .toggleMark(let id) = event {
          try next.toggleMark(id)
        } else {
          next.clearMarks()
        }
        let marks = next.marks
        guard marks != emit.state.marks, emit.isActive else { return }
        try savedMarks.emit(SavedMarks(marks: marks))
        if let error = await savedMarks.waitUntilStored() { throw error }
        // Closed while storing: the event ends cancelled; the stored marks show after a restart.
        guard emit.isActive else { return }
        emit.update { $0.marks = marks }
      }
      bloc.on(.clear, cancels: [.search]) { _, emit in emit.update { $0.clearSearch() } }
    }
  }
}
