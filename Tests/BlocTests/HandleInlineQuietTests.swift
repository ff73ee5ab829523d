@_spi(Testing) import BlocCore
import Foundation
import Testing

/// A reducer's event handled straight through with no observer of events or changes takes the
/// quiet way (no `Change` is made): it must still record history, fail a refused event, and
/// give way to whoever watches the bloc (a tap, a listener), who then hears every change.
/// (While another test has a global observer of `.done`, `handleInline` declines; these tests
/// then check that nothing happened.)
@Suite struct HandleInlineQuietTests {
  enum Note: BlocEvent, Hashable { case append(String), refuse }

  /// A state with a reference in it (a string), so copies and history go through its value
  /// witnesses rather than plain bytes.
  struct Text: Equatable, Sendable { var text = "" }

  static func writer(history: HistoryLimit? = nil) -> Bloc<Note, Text> {
    Bloc(initialState: Text(), history: history) {
      (state: Text, note: Note) throws(Refused) -> Text in
      switch note {
      case .append(let more): Text(text: state.text + more)
      case .refuse: throw Refused()
      }
    }
  }

  @Test func aQuietChangeIsRecordedForUndoAndRedo() async {
    let bloc = Self.writer(history: .limit(2))
    for piece in ["a", "b", "c"] {
      guard let done = bloc.handleInline(.append(piece)) else {
        #expect(bloc.state.text.isEmpty, "declined: nothing happened")
        return
      }
      #expect(done.outcome.isHandled)
    }
    #expect(bloc.state.text == "abc")
    #expect(bloc.sequence == 3)
    #expect(bloc.handleInline(.append(""))?.changed == 0, "an equal state is no change")
    #expect(bloc.undo())
    #expect(bloc.undo())
    #expect(bloc.state.text == "a")
    #expect(!bloc.canUndo, "two steps kept")
    #expect(bloc.redo())
    #expect(bloc.state.text == "ab")
    #expect(bloc.handleInline(.append("x"))?.outcome.isHandled != false)
    #expect(!bloc.canRedo, "a recorded change clears what could be redone")
    #expect(bloc.undo())
    #expect(bloc.state.text == "ab")
  }

  @Test func aRefusalFailsTheEventAndAnObserverOfErrorsHearsIt() async {
    let bloc = Self.writer()
    let errors = ErrorsHeard()
    bloc.addObserver(errors)
    guard let done = bloc.handleInline(.refuse) else { return }
    guard case .failed(let error) = done.outcome else {
      Issue.record("a refusal fails: \(done.outcome)")
      return
    }
    #expect(error is Refused)
    #expect(errors.count == 1)
    #expect(bloc.state.text.isEmpty)
    #expect(bloc.sequence == 0)
    #expect(bloc.handleInline(.append("a"))?.outcome.isHandled != false, "the order is free")
  }

  @Test func aListenerAndATapHearEveryChange() async {
    let bloc = Self.writer()
    let heard = Lines()
    bloc.listen { heard.add("listener \($0.sequence) \($0.state.text)") }
    bloc.tap { tap in
      if case .change(let change) = tap {
        heard.add("tap \(change.current.text)>\(change.next.text)")
      }
    }
    guard bloc.handleInline(.append("a")) != nil else { return }
    #expect(bloc.handleInline(.append("b")) != nil)
    #expect(
      heard.lines == ["listener 0 ", "tap >a", "listener 1 a", "tap a>ab", "listener 2 ab"])
  }
}

private struct Refused: Error {}

/// Observes errors alone: the quiet way stays open to it.
private final class ErrorsHeard: BlocObserver, @unchecked Sendable {  // count behind the lock
  private let lock = NSLock()
  private var heard = 0
  var count: Int { lock.withLock { heard } }
  var hooks: BlocHooks { .error }

  func onError<State>(_ bloc: BlocBase<State>, error: any Error) {
    guard (error as? HandlerFailure<HandleInlineQuietTests.Note>)?.error is Refused else { return }
    lock.withLock { heard += 1 }
  }
}

private final class Lines: @unchecked Sendable {  // lines behind the lock
  private let lock = NSLock()
  private var recorded: [String] = []
  var lines: [String] { lock.withLock { recorded } }
  func add(_ line: String) { lock.withLock { recorded.append(line) } }
}
