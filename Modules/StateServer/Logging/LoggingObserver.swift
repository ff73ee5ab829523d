import BlocCore

/// Logs the life of every bloc: storage, restore and the daemon's own problems as warnings;
/// events, changes, outcomes and the events a feature refused (the client's mistakes, already
/// told to it as `event_failed`) at debug level. Events and states are written as the protocol
/// writes them (``ProtocolWords``).
///
/// ```swift
/// BlocObservers.add(LoggingObserver(logger: logger))  // before creating the blocs
/// ```
public struct LoggingObserver: BlocObserver {
  public let logger: Logger

  public init(logger: Logger) { self.logger = logger }

  /// Errors always; the rest only when debug lines are written, so that at other levels the
  /// blocs make no call per event.
  public var hooks: BlocHooks { logger.isEnabled(.debug) ? .all : .error }

  public func onCreate<State>(_ bloc: BlocBase<State>) {
    logger.debug("\(bloc.name): created, state \(ProtocolWords.text(bloc.state))")
  }

  public func onEvent<Event, State>(_ bloc: Bloc<Event, State>, event: Event) {
    logger.debug("\(bloc.name): event \(ProtocolWords.text(event))")
  }

  public func onChange<State>(_ bloc: BlocBase<State>, change: Change<State>) {
    logger.debug("\(bloc.name): state \(ProtocolWords.text(change.next))")
  }

  public func onError<State>(_ bloc: BlocBase<State>, error: any Error) {
    if let persistence = error as? PersistenceError {
      switch persistence {
      case .unreadable, .noMigration, .newerVersion:
        logger.warning("\(bloc.name): restore: \(persistence)")
      case .writeFailed, .invalidKey:
        logger.warning("\(bloc.name): persistence: \(persistence)")
      }
      return
    }
    if let failure = error as? any FailedEvent {
      // A change that could not be stored is the daemon's problem; any other failure is the
      // feature refusing what a client sent, which its reply already told it.
      let stored = failure.error is PersistenceError
      logger.log(
        stored ? .warning : .debug,
        "\(bloc.name): event \(ProtocolWords.text(failure.failedEvent)) failed "
          + "(\(stored ? "storage_failed" : "event_failed")): \(failure.error)")
      return
    }
    logger.warning("\(bloc.name): \(error)")
  }

  public func onDone<Event, State>(_ bloc: Bloc<Event, State>, event: Event, outcome: EventOutcome)
  {
    logger.debug("\(bloc.name): \(ProtocolWords.text(event)) \(outcome.name)")
  }

  public func onClose<State>(_ bloc: BlocBase<State>) {
    logger.debug("\(bloc.name): closed")
  }
}
