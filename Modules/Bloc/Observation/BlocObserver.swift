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

/// The hooks some global observer wants, as ``ObserverList`` publishes them: a global atomic,
/// initialised statically, so that reading it needs no `swift_once` (the list itself, a lazily
/// created global, does).
private let globallyWantedHooks = Atomic<UInt8>(0)

/// The observers that see every bloc.
public enum BlocObservers {
  private static let list = ObserverList(isGlobal: true)

  /// Adds an observer of every bloc; returns a token that removes it.
  @discardableResult
  public static func add(_ observer: any BlocObserver) -> ObserverToken { list.add(observer) }

  /// Removes an observer added with ``add(_:)``.
  public static func remove(_ token: ObserverToken) { list.remove(token) }

  /// The global observers that want `hook`.
  static func observers(for hook: BlocHooks) -> [ObserverEntry] { list.observers(for: hook) }

  /// The hooks some global observer wants.
  static var wanted: BlocHooks {
    BlocHooks(rawValue: globallyWantedHooks.load(ordering: .acquiring))
  }
}

/// Identifies a registered observer, for removal.
public struct ObserverToken: Hashable, Sendable {
  private static let counter = Atomic<UInt64>(0)
  private let value: UInt64
  init() { value = Self.counter.add(1, ordering: .relaxed).newValue }
}

struct ObserverEntry: Sendable {
  fileprivate let token: ObserverToken
  let observer: any BlocObserver
  fileprivate let hooks: BlocHooks
}

/// Observers, and the union of the hooks they want: a hook that none of them wants is skipped
/// with one atomic load, without the list's lock (the usual case: no observer at all). Holds
/// the global observers, and each bloc's own.
final class ObserverList: Sendable {
  private let entries = Locked<[ObserverEntry]>([])
  private let wantedHooks = Atomic<UInt8>(0)
  /// Whether this is the global list, which also publishes what it wants in
  /// `globallyWantedHooks` (``BlocObservers/wanted``).
  private let isGlobal: Bool

  init(isGlobal: Bool = false) { self.isGlobal = isGlobal }

  func add(_ observer: any BlocObserver) -> ObserverToken {
    let token = ObserverToken()
    entries.withLock { entries in
      entries.append(ObserverEntry(token: token, observer: observer, hooks: observer.hooks))
      publishWanted(entries)
    }
    return token
  }

  func remove(_ token: ObserverToken) {
    entries.withLock { entries in
      entries.removeAll { $0.token == token }
      publishWanted(entries)
    }
  }

  /// The hooks some observer wants.
  var wanted: BlocHooks { BlocHooks(rawValue: wantedHooks.load(ordering: .acquiring)) }

  /// The observers that want `hook`, in the order they were added.
  func observers(for hook: BlocHooks) -> [ObserverEntry] {
    guard wanted.contains(hook) else { return [] }
    return entries.withLock { $0.filter { $0.hooks.contains(hook) } }
  }

  private func publishWanted(_ entries: [ObserverEntry]) {
    let union = entries.reduce(into: BlocHooks()) { $0.formUnion($1.hooks) }
    wantedHooks.store(union.rawValue, ordering: .releasing)
    if isGlobal { globallyWantedHooks.store(union.rawValue, ordering: .releasing) }
  }
}
