import BlocCore
import FeatureKit
import Glibc
import Wire

/// One concluded event, or one change made by a request (`undo`, `redo`, `goto`, `restore`),
/// as a monitor sees it.
struct ConcludedEvent: Sendable {
  /// `event`, or the op that made the change.
  var cause = "event"
  /// The event's JSON; nil for a change that no event made.
  let event: [UInt8]?
  /// The seq a `goto` went to.
  var target: UInt64?
  let outcome: EventOutcome
  /// The sequence number of `after`.
  let sequence: UInt64
  /// The state before the event's first change, and after its last (equal when it changed
  /// nothing).
  let before: [UInt8]
  let after: [UInt8]
  /// When it concluded: milliseconds since 1970 (UTC).
  var time = ConcludedEvent.now()

  /// Milliseconds since 1970 (UTC).
  static func now() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
  }
}

/// A bloc observer that pairs each event of one bloc with the changes it made, and reports it
/// once it is concluded: what `monitor` pushes.
///
/// Events are told apart by their JSON form. A change goes to the oldest open event of that
/// form that has made no change yet, else to the newest one that has (an event that changes
/// the state several times, like a search, keeps its changes). Identical events in flight
/// together may thus swap changes; their outcomes stay right.
///
/// ```swift
/// let token = bloc.addObserver(EventTracker<CounterEvent, CounterState> { print($0) })
/// ```
final class EventTracker<E: DeclaredEvent, S: DeclaredState>: BlocObserver, Sendable {
  private struct Open {
    let event: [UInt8]
    var before: S?
    var after: S?
    var sequence: UInt64 = 0
  }

  private let open = Locked<[Open]>([])
  private let report: @Sendable (ConcludedEvent) -> Void

  init(report: @escaping @Sendable (ConcludedEvent) -> Void) {
    self.report = report
  }

  func onEvent<Event, State>(_ bloc: Bloc<Event, State>, event: Event) {
    guard let event = event as? E else { return }
    let json = Self.json(event)
    open.withLock { $0.append(Open(event: json)) }
  }

  func onTransition<Event, State>(
    _ bloc: Bloc<Event, State>, transition: Transition<Event, State>
  ) {
    guard let event = transition.event as? E, let current = transition.current as? S,
      let next = transition.next as? S
    else { return }
    let json = Self.json(event)
    let sequence = bloc.sequence
    open.withLock { open in
      let fresh = open.firstIndex { $0.event == json && $0.before == nil }
      guard let index = fresh ?? open.lastIndex(where: { $0.event == json }) else { return }
      if open[index].before == nil { open[index].before = current }
      open[index].after = next
      open[index].sequence = sequence
    }
  }

  func onDone<Event, State>(_ bloc: Bloc<Event, State>, event: Event, outcome: EventOutcome) {
    guard let event = event as? E else { return }
    let json = Self.json(event)
    let entry = open.withLock { open -> Open? in
      guard let index = open.firstIndex(where: { $0.event == json }) else { return nil }
      return open.remove(at: index)
    }
    // A change that could not be stored was undone: the event changed nothing that is shown.
    var refused = false
    if case .failed(let error) = outcome { refused = error is PersistenceError }
    let concluded: ConcludedEvent
    if !refused, let entry, let before = entry.before, let after = entry.after {
      concluded = ConcludedEvent(
        event: json, outcome: outcome, sequence: entry.sequence, before: Self.json(before),
        after: Self.json(after))
    } else {
      // No change: before and after are the (stored) state now.
      let now = bloc.storedSnapshot
      let state = (now.state as? S).map(Self.json) ?? Self.null
      concluded = ConcludedEvent(
        event: json, outcome: outcome, sequence: now.sequence, before: state, after: state)
    }
    report(concluded)
  }

  private static var null: [UInt8] { Array("null".utf8) }

  /// The event as a client sends it, written by its declaration.
  private static func json(_ event: E) -> [UInt8] {
    var json = JSONWriter(capacity: 64)
    do { try event.write(to: &json) } catch { return null }
    return json.bytes
  }

  private static func json(_ state: S) -> [UInt8] {
    (try? StateCodec<S>.json(state)) ?? null
  }
}
