import BlocCore

/// How one AppSearch event is handled: the lane it joins and its work, given what the work
/// needs beyond the state (`Needs`).
struct AppSearchHandling: Sendable {
  /// What the handling of events uses beyond the state: the search runner and the saved marks.
  struct Needs: Sendable {
    let runner: SearchRunner
    let marks: MarkStore
  }

  typealias Work = @Sendable (Needs, Emitter<AppSearchState>) async throws -> Void

  let lane: AppSearchLane
  let work: Work

  init(_ lane: AppSearchLane, _ work: @escaping Work) {
    self.lane = lane
    self.work = work
  }
}
