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
  private enum Slot {
    case pending([@Sendable (EventOutcome) -> Void])
    case resolved(EventOutcome)
  }
  private let slot: Locked<Slot>

  @usableFromInline init() { slot = Locked(.pending([])) }

  private init(resolved outcome: EventOutcome) { slot = Locked(.resolved(outcome)) }

  private static let handled = EventReceipt(resolved: .handled)
  private static let dropped = EventReceipt(resolved: .dropped)
  private static let cancelled = EventReceipt(resolved: .cancelled)

  /// A receipt already resolved with `outcome`: shared for every outcome but a failure, so an
  /// event handled inline costs no receipt allocation.
  @usableFromInline static func resolved(_ outcome: EventOutcome) -> EventReceipt {
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
      case .pending(var waiters):
        slot = .pending([])  // leaves `waiters` uniquely referenced: the append copies nothing
        waiters.append(body)
        slot = .pending(waiters)
        return nil
      }
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
  @usableFromInline func resolve(_ outcome: EventOutcome) {
    let waiters: [@Sendable (EventOutcome) -> Void] = slot.withLock { slot in
      guard case .pending(let waiters) = slot else { return [] }
      slot = .resolved(outcome)
      return waiters
    }
    for waiter in waiters { waiter(outcome) }
  }
}
