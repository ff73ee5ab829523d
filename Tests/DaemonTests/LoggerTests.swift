import BlocCore
import StateServer
import Testing

/// Logger's levels order by severity, as swift-log's do, and a logger writes its level and
/// every more severe one.
@Suite struct LoggerTests {
  @Test func levelsOrderBySeverityLeastFirst() {
    #expect(Logger.Level.allCases == [.debug, .info, .warning, .error])
    #expect(Logger.Level.debug < .info && Logger.Level.info < .warning)
    #expect(Logger.Level.warning < .error)
  }

  @Test func aLoggerWritesItsLevelAndMoreSevereOnes() {
    let lines = Locked<[String]>([])
    let log = Logger(
      label: "stated", level: .info, sink: { line in lines.withLock { $0.append(line) } })
    log.debug("hidden")
    log.info("listening")
    log.warning("slow")
    log.error("failed")
    #expect(
      lines.withLock { $0 }
        == ["stated: info: listening\n", "stated: warning: slow\n", "stated: error: failed\n"])
    #expect(!log.isEnabled(.debug) && log.isEnabled(.error))
  }

  @Test func aDebugMessageIsBuiltOnlyWhenDebugIsOn() {
    let built = Locked(0)
    func message() -> String {
      built.withLock { $0 += 1 }
      return "event"
    }
    Logger(level: .info, sink: { _ in }).debug(message())
    #expect(built.withLock { $0 } == 0)
    Logger(level: .debug, sink: { _ in }).debug(message())
    #expect(built.withLock { $0 } == 1)
  }
}
