/// How a handler treats events of its kind that overlap with earlier events.
///
/// Whatever the transformer, a bloc handles its events in the order they are added, one at a
/// time, across kinds (see ``Bloc``); each transformer states below where it departs from that.
///
/// ```swift
/// on(.search, transformer: .throttle(.milliseconds(200))) { event, emit in … }
/// ```
public struct EventTransformer: Sendable, CustomStringConvertible {
  enum Strategy: Sendable {
    case concurrent, sequential, independent, droppable, restartable
    case debounce(@Sendable () -> Duration)
    case throttle(@Sendable () -> Duration)
  }
  let strategy: Strategy

  /// Every event runs at once, beside the others: it neither waits for earlier events nor
  /// makes later ones wait. The one transformer that opts out of the bloc's order.
  public static let concurrent = EventTransformer(strategy: .concurrent)
  /// One at a time, in the order added, after every earlier event of the bloc (the default:
  /// handlers that read `emit.state` and emit never lose an update).
  public static let sequential = EventTransformer(strategy: .sequential)
  /// One at a time and in order among events of its own kind, but outside the bloc's order: it
  /// neither waits for events of other kinds nor makes them wait (a mark toggled while a slow
  /// search runs). Each `.independent` kind has its own lane.
  public static let independent = EventTransformer(strategy: .independent)
  /// While an event of this kind runs or waits its turn, new ones of the kind are dropped
  /// (outcome ``EventOutcome/dropped``); otherwise like ``sequential``.
  public static let droppable = EventTransformer(strategy: .droppable)
  /// A new event cancels the earlier one of its kind, running or waiting (outcome
  /// ``EventOutcome/cancelled``); a cancelled handler's later emits are dropped, so a stale
  /// result never overwrites a newer one. The cancelled handler counts as finished: the events
  /// after it start while it winds down.
  public static let restartable = EventTransformer(strategy: .restartable)

  /// Waits until no event came for `interval`, then handles the latest, restartably. The events
  /// it replaced are dropped. The event joins the bloc's order when the quiet period ends, so
  /// events added meanwhile are handled before it.
  public static func debounce(_ interval: Duration) -> EventTransformer {
    EventTransformer(strategy: .debounce({ interval }))
  }
  /// Like ``debounce(_:)-swift.type.method``, reading the interval each time (e.g. from settings).
  public static func debounce(_ interval: @escaping @Sendable () -> Duration) -> EventTransformer {
    EventTransformer(strategy: .debounce(interval))
  }

  /// Handles an event at once, then at most one per `interval`, keeping the latest that came
  /// during the interval (earlier ones are dropped). Handling is restartable. The first event
  /// joins the bloc's order when added; a kept one when its interval ends.
  public static func throttle(_ interval: Duration) -> EventTransformer {
    EventTransformer(strategy: .throttle({ interval }))
  }
  /// Like ``throttle(_:)-swift.type.method``, reading the interval each time.
  public static func throttle(_ interval: @escaping @Sendable () -> Duration) -> EventTransformer {
    EventTransformer(strategy: .throttle(interval))
  }

  public var description: String {
    switch strategy {
    case .concurrent: return "concurrent"
    case .sequential: return "sequential"
    case .independent: return "independent"
    case .droppable: return "droppable"
    case .restartable: return "restartable"
    case .debounce(let interval): return "debounce(\(interval()))"
    case .throttle(let interval): return "throttle(\(interval()))"
    }
  }
}
