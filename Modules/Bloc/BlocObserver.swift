import Synchronization

/// Sees the life of blocs: creation, events, changes, transitions, errors, finished events
/// and closing. Every method has an empty default, so an observer implements only what it needs.
///
/// Register one for every bloc with ``BlocObservers/add(_:)``, or for one bloc with
/// ``BlocBase/addObserver(_:)``.
///
/// ```swift
/// struct Logger: BlocObserver {
///   func onChange<State>(_ bloc: BlocBase<State>, change: Change<State>) {
///     print("\(bloc.name): \(change)")
///   }
/// }
/// BlocObservers.add(Logger())
/// ```
/// Observers are called synchronously on the thread that caused the call; keep them quick and
/// do not emit from them.
///
/// An observer that needs only some methods can say so with ``hooks``; the others then cost
/// nothing per event:
///
/// ```swift
/// struct ErrorReporter: BlocObserver {
///   var hooks: BlocHooks { .error }
///   func onError<State>(_ bloc: BlocBase<State>, error: any Error) { report(error) }
/// }
/// ```
public protocol BlocObserver: Sendable {
  /// The methods to call; blocs skip the others without calling them. Read once, when the
  /// observer is added. The default is ``BlocHooks/all``.
  var hooks: BlocHooks { get }
  func onCreate<State>(_ bloc: BlocBase<State>)
  func onEvent<Event, State>(_ bloc: Bloc<Event, State>, event: Event)
  func onChange<State>(_ bloc: BlocBase<State>, change: Change<State>)
  func onTransition<Event, State>(_ bloc: Bloc<Event, State>, transition: Transition<Event, State>)
  /// `error` is a ``HandlerFailure`` when an event caused it.
  func onError<State>(_ bloc: BlocBase<State>, error: any Error)
  func onDone<Event, State>(_ bloc: Bloc<Event, State>, event: Event, outcome: EventOutcome)
  func onClose<State>(_ bloc: BlocBase<State>)
}

extension BlocObserver {
  public var hooks: BlocHooks { .all }
  public func onCreate<State>(_ bloc: BlocBase<State>) {}
  public func onEvent<Event, State>(_ bloc: Bloc<Event, State>, event: Event) {}
  public func onChange<State>(_ bloc: BlocBase<State>, change: Change<State>) {}
  public func onTransition<Event, State>(
    _ bloc: Bloc<Event, State>, transition: Transition<Event, State>
  ) {}
  public func onError<State>(_ bloc: BlocBase<State>, error: any Error) {}
  public func onDone<Event, State>(_ bloc: Bloc<Event, State>, event: Event, outcome: EventOutcome)
  {}
  public func onClose<State>(_ bloc: BlocBase<State>) {}
}

/// The observers that see every bloc.
public enum BlocObservers {
  private static let registry = Locked<[ObserverEntry]>([])
  // The hooks any global observer wants: the hot path skips the registry's lock for the others
  // (all of them when no global observer exists, the usual case).
  private static let wanted = Atomic<UInt8>(0)

  /// Adds an observer of every bloc; returns a token that removes it.
  @discardableResult
  public static func add(_ observer: any BlocObserver) -> ObserverToken {
    let token = ObserverToken()
    registry.withLock {
      $0.append(ObserverEntry(token: token, observer: observer))
      wanted.store(BlocHooks(wantedBy: $0).rawValue, ordering: .releasing)
    }
    return token
  }

  /// Removes an observer added with ``add(_:)``.
  public static func remove(_ token: ObserverToken) {
    registry.withLock {
      $0.removeAll { $0.token == token }
      wanted.store(BlocHooks(wantedBy: $0).rawValue, ordering: .releasing)
    }
  }

  /// The global observers that want `hook`.
  static func observers(for hook: BlocHooks) -> [ObserverEntry] {
    guard BlocHooks(rawValue: wanted.load(ordering: .acquiring)).contains(hook) else { return [] }
    return registry.withLock { $0.filter { $0.hooks.contains(hook) } }
  }
}

/// Identifies a registered observer, for removal.
public struct ObserverToken: Hashable, Sendable {
  private static let counter = Atomic<UInt64>(0)
  let value: UInt64
  init() { value = Self.counter.add(1, ordering: .relaxed).newValue }
}

struct ObserverEntry: Sendable {
  let token: ObserverToken
  let observer: any BlocObserver
  let hooks: BlocHooks

  init(token: ObserverToken, observer: any BlocObserver) {
    self.token = token
    self.observer = observer
    self.hooks = observer.hooks
  }
}

extension BlocHooks {
  /// The hooks any of `entries` wants.
  init(wantedBy entries: [ObserverEntry]) {
    self = entries.reduce(into: []) { $0.formUnion($1.hooks) }
  }
}
