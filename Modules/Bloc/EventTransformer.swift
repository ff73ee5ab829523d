/// How a handler treats events of its kind that arrive while earlier ones are still handled.
///
/// ```swift
/// on(.search, transformer: .throttle(.milliseconds(200))) { event, emit in … }
/// ```
public struct EventTransformer: Sendable, CustomStringConvertible {
  enum Strategy: Sendable {
    case concurrent, sequential, droppable, restartable
    case debounce(@Sendable () -> Duration)
    case throttle(@Sendable () -> Duration)
  }
  let strategy: Strategy

  /// Every event runs at once, beside the others.
  public static let concurrent = EventTransformer(strategy: .concurrent)
  /// One at a time, in the order added (the default: handlers that read `emit.state` and emit
  /// never lose an update).
  public static let sequential = EventTransformer(strategy: .sequential)
  /// While a handler runs, new events are dropped (outcome ``EventOutcome/dropped``).
  public static let droppable = EventTransformer(strategy: .droppable)
  /// A new event cancels the running handler (outcome ``EventOutcome/cancelled``); its later
  /// emits are dropped, so a stale result never overwrites a newer one.
  public static let restartable = EventTransformer(strategy: .restartable)

  /// Waits until no event came for `interval`, then handles the latest, restartably. The events
  /// it replaced are dropped.
  public static func debounce(_ interval: Duration) -> EventTransformer {
    EventTransformer(strategy: .debounce({ interval }))
  }
  /// Like ``debounce(_:)-swift.type.method``, reading the interval each time (e.g. from settings).
  public static func debounce(_ interval: @escaping @Sendable () -> Duration) -> EventTransformer {
    EventTransformer(strategy: .debounce(interval))
  }

  /// Handles an event at once, then at most one per `interval`, keeping the latest that came
  /// during the interval (earlier ones are dropped). Handling is restartable.
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
    case .droppable: return "droppable"
    case .restartable: return "restartable"
    case .debounce(let interval): return "debounce(\(interval()))"
    case .throttle(let interval): return "throttle(\(interval()))"
    }
  }
}
