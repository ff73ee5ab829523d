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
    let needs = AppSearchHandling.Needs(
      runner: SearchRunner(configuration: configuration, services: services),
      marks: MarkStore(storage: storage))
    self.init(
      initialState: AppSearchState(marks: needs.marks.marks), clock: clock, name: "AppSearchBloc"
    ) { bloc in
      // One handler per lane, with the lane's transformer; each event's handling is its own.
      for lane in AppSearchLane.allCases {
        bloc.on(lane, transformer: lane.transformer(configuration), cancels: lane.cancels) {
          event, emit in try await event.handling.work(needs, emit)
        }
      }
    }
  }
}
