/// What finally happened to an event.
public enum EventOutcome: Sendable, CustomStringConvertible {
  /// Its handler ran to the end.
  case handled
  /// A transformer dropped it (droppable while busy, or superseded while debounced or throttled).
  case dropped
  /// Its handler was cancelled (superseded by a restartable event, or the bloc closed).
  case cancelled
  /// Its handler threw, or it could not be handled at all.
  case failed(any Error)

  public var description: String {
    switch self {
    case .handled: return "handled"
    case .dropped: return "dropped"
    case .cancelled: return "cancelled"
    case .failed(let error): return "failed: \(error)"
    }
  }

  /// The outcome's name: `handled`, `dropped`, `cancelled` or `failed`.
  public var name: String {
    switch self {
    case .handled: return "handled"
    case .dropped: return "dropped"
    case .cancelled: return "cancelled"
    case .failed: return "failed"
    }
  }

  /// Whether the handler ran to the end.
  public var isHandled: Bool {
    if case .handled = self { return true }
    return false
  }
}

/// Returned by `Bloc.add`: await ``outcome`` to learn when the event is done.
///
/// ```swift
/// let outcome = await bloc.add(.increment).outcome
/// ```
/// Callers that do not care simply ignore it.
public final class EventReceipt: Sendable {
  /// A closure in a struct: stored in an optional or an array as it is, with no reabstraction
  /// thunk allocated on the way in and called on the way out.
  private struct Waiter {
    let notify: @Sendable (EventOutcome) -> Void
  }

  private enum Slot {
    /// The first waiter is kept apart: a receipt usually has one (a server's reply), and then
    /// no array is allocated.
    case pending(first: Waiter?, more: [Waiter])
    case resolved(EventOutcome)
  }
  // A pthread mutex (`Locked`), not `Synchronization.Mutex`: ThreadSanitizer does not see the
  // toolchain's uninstrumented Mutex synchronise, and reports its users as racing.
  private let slot: Locked<Slot>

  init() { slot = Locked(.pending(first: nil, more: [])) }

  private init(resolved outcome: EventOutcome) { slot = Locked(.resolved(outcome)) }

  private static let handled = EventReceipt(resolved: .handled)
  private static let dropped = EventReceipt(resolved: .dropped)
  private static let cancelled = EventReceipt(resolved: .cancelled)

  /// A receipt already resolved with `outcome`: shared for every outcome but a failure, so an
  /// event handled inline costs no receipt allocation.
  static func resolved(_ outcome: EventOutcome) -> EventReceipt {
    switch outcome {
    case .handled: return handled
    case .dropped: return dropped
    case .cancelled: return cancelled
    case .failed: return EventReceipt(resolved: outcome)
    }
  }

  /// The event's outcome, once known.
  public var outcome: EventOutcome {
    get async {
      // Already known (the usual case after `send`'s fast path): return without suspending.
      if let resolved = resolvedOutcome { return resolved }
      return await withCheckedContinuation { continuation in
        onResolve { continuation.resume(returning: $0) }
      }
    }
  }

  /// Calls `body` with the outcome once it is known: at once if it already is, otherwise on the
  /// thread that resolves it (keep `body` quick). Lets a server reply without a waiting task.
  public func onResolve(_ body: @escaping @Sendable (EventOutcome) -> Void) {
    let ready: EventOutcome? = slot.withLock { slot in
      switch slot {
      case .resolved(let outcome): return outcome
      case .pending(nil, let more) where more.isEmpty:
        slot = .pending(first: Waiter(notify: body), more: more)
      case .pending(let first, var more):
        slot = .pending(first: nil, more: [])  // leaves `more` uniquely referenced: no copy
        more.append(Waiter(notify: body))
        slot = .pending(first: first, more: more)
      }
      return nil
    }
    if let ready { body(ready) }
  }

  /// The outcome if already known.
  public var resolvedOutcome: EventOutcome? {
    slot.withLock { slot in
      if case .resolved(let outcome) = slot { return outcome }
      return nil
    }
  }

  /// Resolves once; later calls are ignored.
  func resolve(_ outcome: EventOutcome) {
    let (first, more): (Waiter?, [Waiter]) = slot.withLock { slot in
      guard case .pending(let first, let more) = slot else { return (nil, []) }
      slot = .resolved(outcome)
      return (first, more)
    }
    first?.notify(outcome)
    for waiter in more { waiter.notify(outcome) }
  }
}
