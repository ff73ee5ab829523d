import BlocCore

/// The lanes AppSearch's events are handled in (the bloc's event kinds): how an event overlaps
/// with the others. Each event's handling names its lane (AppSearchEvent.swift); the bloc
/// registers one handler per lane, with the lane's transformer.
///
/// Events are handled in the order they arrive whatever their lane, except where a lane says
/// otherwise below.
public enum AppSearchLane: Hashable, Sendable, CaseIterable {
  /// Searches: throttled by the configuration's interval, keeping the latest term; a newer
  /// search cancels the one in flight.
  case search
  /// Events that change nothing (a blank search): handled at once, beside everything, so they
  /// never reach the throttle nor cancel a search.
  case unchanged
  /// Mark changes: one at a time, in order, each stored before it shows (`MarkStore`).
  case marks
  /// Clearing the search: cancels the searches before it (running, queued or throttled).
  case clear

  /// How the lane's events overlap; the throttle reads its interval from `configuration` each
  /// time it opens a window.
  func transformer(_ configuration: any SearchConfigurationSource) -> EventTransformer {
    switch self {
    case .search: return .throttle { configuration.configuration.throttle }
    case .unchanged: return .concurrent
    case .marks, .clear: return .sequential
    }
  }

  /// The lanes whose earlier events an event of this lane cancels.
  var cancels: Set<AppSearchLane> { self == .clear ? [.search] : [] }
}
