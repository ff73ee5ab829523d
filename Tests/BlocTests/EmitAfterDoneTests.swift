import BlocCore
import Testing

/// An emit once the handler is done, as felangel/bloc treats it: silent after a cancellation
/// (the outcome says `cancelled`), an error after the handler finished normally.
@Suite struct EmitAfterDoneTests {
  @Test func anEmitFromAHandlerCancelledByCloseIsDroppedSilently() async {
    let gate = Gate()
    let bloc = GatedBloc(transformer: .sequential, gates: [1: gate])
    let log = LogObserver()
    bloc.addObserver(log)
    let one = bloc.add(.value(1))
    await eventually { gate.waiting == 1 }
    let closing = Task { await bloc.close() }
    await eventually { bloc.isClosed }
    gate.open()  // the handler ignores cancellation and emits anyway
    await closing.value  // close awaits the cancelled handler, so its emit has happened
    guard case .cancelled = await one.outcome else {
      Issue.record("expected cancelled, got \(await one.outcome)")
      return
    }
    #expect(!log.all.contains { $0.hasPrefix("error") }, "\(log.all)")
    #expect(bloc.state == 0)
  }

  @Test func anEmitFromAHandlerARestartableSuccessorCancelledIsDroppedSilently() async {
    let gate = Gate()
    let bloc = GatedBloc(transformer: .restartable, gates: [1: gate])
    let log = LogObserver()
    bloc.addObserver(log)
    let one = bloc.add(.value(1))
    await eventually { gate.waiting == 1 }
    let two = bloc.add(.value(2))
    #expect(await two.outcome.isHandled)
    gate.open()  // the cancelled handler ignores cancellation and emits anyway
    await bloc.settled()  // a cancelled handler still winding down counts as work
    guard case .cancelled = await one.outcome else {
      Issue.record("expected cancelled, got \(await one.outcome)")
      return
    }
    #expect(!log.all.contains { $0.hasPrefix("error") }, "\(log.all)")
    #expect(bloc.state == 2, "the cancelled handler's emit is dropped")
    await bloc.close()
  }

  @Test func anEmitAfterTheHandlerFinishedIsReported() async {
    let release = Gate()
    let emitted = Gate()
    final class LeakingBloc: Bloc<ValueEvent, Int>, @unchecked Sendable {
      init(release: Gate, emitted: Gate) {
        super.init(initialState: 0)
        on("value") { event, emit in
          // The bug: the emitter escapes into a task the handler does not await.
          Task {
            await release.wait()
            emit(event.number)
            emitted.open()
          }
        }
      }
    }
    let bloc = LeakingBloc(release: release, emitted: emitted)
    let log = LogObserver()
    bloc.addObserver(log)
    #expect(await bloc.send(.value(7)).isHandled)
    release.open()
    await emitted.wait()
    let dropped = BlocError.emitAfterHandlerDone(bloc: "LeakingBloc", event: "value(7)")
    #expect(log.all.contains("error \(dropped)"), "\(log.all)")
    #expect(bloc.state == 0)
    await bloc.close()
  }
}
