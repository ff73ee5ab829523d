/// Handler registration: one handler per event kind, before events are added.
extension Bloc {
  /// Registers the handler of one event kind; call it once per kind, before adding events.
  ///
  /// - Parameters:
  ///   - kind: the kind of event the handler handles.
  ///   - transformer: how events of this kind overlap; the bloc's default when nil.
  ///   - cancels: kinds whose earlier events an event of this kind cancels when added —
  ///     running (its emits are dropped from then on), queued, or waiting on a debounce or
  ///     throttle timer. A `clear` that discards a search in flight:
  ///     `on(.clear, cancels: [.search]) { _, emit in emit(.empty) }`.
  ///   - handler: turns each event of this kind into states with its emitter.
  public func on(
    _ kind: Event.Kind, transformer: EventTransformer? = nil, cancels: Set<Event.Kind> = [],
    _ handler: @escaping Handler
  ) {
    register(
      kind,
      Registration(
        body: .async(handler), transformer: transformer ?? defaultTransformer, cancels: cancels))
  }

  /// Registers a handler that never suspends. On an idle bloc, `add` runs it to completion in
  /// the caller's thread, so the receipt is resolved on return (for a persisted bloc, once the
  /// change is stored). Otherwise it waits its turn like any other.
  ///
  /// ```swift
  /// bloc.on(.increment) { _, emit in emit.update { $0 += 1 } }
  /// ```
  public func on(
    _ kind: Event.Kind, transformer: EventTransformer? = nil, cancels: Set<Event.Kind> = [],
    _ handler: @escaping SyncHandler
  ) {
    register(
      kind,
      Registration(
        body: .sync(handler), transformer: transformer ?? defaultTransformer, cancels: cancels))
  }

  private func register(_ kind: Event.Kind, _ registration: Registration) {
    let registered = withDispatch { dispatch -> Bool in
      if dispatch.handlers[kind] != nil { return false }
      dispatch.handlers[kind] = registration
      dispatch.handlings.append(KindHandling(kind: kind, registration))
      dispatch.reducerOnly = false
      dispatch.idleStart = nil
      dispatch.cancellable.formUnion(registration.cancels)
      switch registration.transformer.strategy {
      case .restartable, .debounce, .throttle: dispatch.cancellable.insert(kind)
      case .concurrent, .sequential, .independent, .droppable: break
      }
      return true
    }
    precondition(registered, "\(name): on(\(kind)) was called twice; register one handler per kind")
  }
}
