import BlocCore

/// Logs the life of every bloc: errors and restore problems as warnings, events, changes and
/// outcomes at debug level.
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
    logger.debug("\(bloc.name): created, state \(bloc.state)")
  }

  public func onEvent<Event, State>(_ bloc: Bloc<Event, State>, event: Event) {
    logger.debug("\(bloc.name): event \(event)")
  }

  public func onChange<State>(_ bloc: BlocBase<State>, change: Change<State>) {
    logger.debug("\(bloc.name): state \(change.next)")
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
    logger.warning("\(bloc.name): \(error)")
  }

  public func onDone<Event, State>(_ bloc: Bloc<Event, State>, event: Event, outcome: EventOutcome)
  {
    logger.debug("\(bloc.name): \(event) \(outcome.name)")
  }

  public func onClose<State>(_ bloc: BlocBase<State>) {
    logger.debug("\(bloc.name): closed")
  }
}
