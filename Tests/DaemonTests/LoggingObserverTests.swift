import BlocCore
import StateServer
import Testing

/// The daemon's bloc log: warnings at every level, the life of each event at debug only (and
/// then only: at other levels the blocs make no observer call per event).
@Suite struct LoggingObserverTests {
  final class Lines: Sendable {
    private let lines = Locked<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
  }

  final class Tally: Cubit<Int>, @unchecked Sendable {
    init() { super.init(initialState: 0) }
    func increment() throws { try emit(state + 1) }
  }

  struct Failure: Error, CustomStringConvertible { var description: String { "disk on fire" } }

  func run(at level: Logger.Level) async -> (lines: [String], hooks: BlocHooks) {
    let lines = Lines()
    let observer = LoggingObserver(
      logger: Logger(label: "stated", level: level) { lines.append($0) })
    let cubit = Tally()
    cubit.addObserver(observer)
    try? cubit.increment()
    cubit.addError(Failure())
    await cubit.close()
    return (lines.all, observer.hooks)
  }

  @Test func atInfoOnlyErrorsAreObservedAndLogged() async {
    let (lines, hooks) = await run(at: .info)
    #expect(hooks == .error)
    #expect(lines == ["stated: warning: Tally: disk on fire\n"])
  }

  @Test func atDebugEveryChangeIsLoggedToo() async {
    let (lines, hooks) = await run(at: .debug)
    #expect(hooks == .all)
    #expect(lines.contains("stated: debug: Tally: state 1\n"))
    #expect(lines.contains("stated: warning: Tally: disk on fire\n"))
    #expect(lines.contains("stated: debug: Tally: closed\n"))
  }
}
