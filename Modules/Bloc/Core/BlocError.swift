/// Errors the library itself raises. Each message names what went wrong and how to fix it.
public enum BlocError: Error, Equatable, Sendable, CustomStringConvertible {
  /// `emit` was called after `close()`.
  case emitAfterClose(bloc: String)
  /// An event was added for which no handler was registered.
  case unhandledEvent(bloc: String, event: String)
  /// An event was added after `close()`.
  case addAfterClose(bloc: String, event: String)
  /// A handler emitted after it had finished (returned or thrown); the state was not applied.
  /// An emit after the handler was cancelled is dropped silently instead (see ``Emitter``).
  case emitAfterHandlerDone(bloc: String, event: String)
  /// A handler returned while an `emit.forEach` it started was still running: the loop was not
  /// awaited, so its states could never be applied.
  case forEachNotAwaited(bloc: String, event: String)

  public var description: String {
    switch self {
    case .emitAfterClose(let bloc):
      return "\(bloc): cannot emit after close(); create a new instance instead"
    case .unhandledEvent(let bloc, let event):
      return
        "\(bloc): no handler for event \(event); register one with on(<kind>) { event, emit in … } in init"
    case .addAfterClose(let bloc, let event):
      return "\(bloc): cannot add event \(event) after close()"
    case .emitAfterHandlerDone(let bloc, let event):
      return
        "\(bloc): the handler of \(event) emitted after it finished; the state was dropped (await the work inside the handler, or check emit.isActive)"
    case .forEachNotAwaited(let bloc, let event):
      return
        "\(bloc): the handler of \(event) returned while its emit.forEach was still running; its states are dropped (write `try await emit.forEach(…)` inside the handler, not in a Task)"
    }
  }
}

/// A failure inside a handler, with the event that caused it.
///
/// Reported to `onError` and observers; the bloc keeps working.
public struct HandlerFailure<Event: Sendable>: Error, CustomStringConvertible {
  /// The event whose handler failed.
  public let event: Event
  /// What the handler threw.
  public let error: any Error

  public init(event: Event, error: any Error) {
    self.event = event
    self.error = error
  }

  public var description: String { "handling \(event) failed: \(error)" }
}
