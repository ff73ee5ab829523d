import Glibc
import Testing
import Wire

/// A client's mistakes are its own: the reply tells it, and the daemon logs them only at debug
/// level, in the protocol's words (the event's JSON, the feature's message), never with Swift's
/// descriptions of the types behind them.
@Suite(.serialized) struct ClientMistakeLogTests {
  static let tooLarge =
    #"{"id":1,"op":"send","feature":"settings","event":{"type":"set","key":"searchLimit","value":500}}"#

  @Test func aRefusedEventIsNoWarning() async throws {
    let daemon = try await DaemonProcess()
    let client = try daemon.client()
    #expect(try await client.call(Self.tooLarge).errorCode == "event_failed")
    #expect(
      try await client.call(#"{"id":2,"op":"send","feature":"counter","event":{"type":"incr"}}"#)
        .errorCode == "unknown_event")
    daemon.signal(SIGTERM)
    #expect(try await daemon.waitForExit() == 0)
    let log = daemon.log
    #expect(!log.contains("warning"), "\(log)")
    #expect(!log.contains("SettingKey"), "\(log)")
  }

  @Test func atDebugItIsLoggedInTheProtocolsWords() async throws {
    let daemon = try await DaemonProcess(arguments: ["--log-level", "debug"])
    let client = try daemon.client()
    #expect(try await client.call(Self.tooLarge).errorCode == "event_failed")
    let line =
      #"stated: debug: SettingsBloc: event {"key":"searchLimit","type":"set","value":500} failed (event_failed): searchLimit must be an integer from 1 to 200; got 500"#
    #expect(await daemon.waitForLog(line), "\(daemon.log)")
    daemon.signal(SIGTERM)
    #expect(try await daemon.waitForExit() == 0)
    #expect(!daemon.log.contains("SettingKey("), "\(daemon.log)")
    #expect(!daemon.log.contains("warning"), "\(daemon.log)")
  }
}
