import Foundation
import Glibc
import Testing
import Wire

/// Scripts/stated_client.py at parity with statectl: `get` prints the state and its seq,
/// `info`, `call` (one request, or NDJSON from stdin), `send FEATURE -`, `get --select`, and
/// errors as JSON where output is, and `history`, `goto` and `monitor` (every change, with its
/// cause), against a real daemon.
@Suite(.serialized) struct PythonClientTests {
  static let script = ProtocolDocumentTests.packageRoot.appendingPathComponent(
    "Scripts/stated_client.py"
  ).path

  /// Runs the client with stdout and stderr apart; `input` is its stdin.
  func python(
    _ arguments: [String], socket: String, input: String? = nil
  ) async throws -> (status: Int32, out: String, err: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", Self.script, "--socket", socket] + arguments
    let output = Pipe()
    let error = Pipe()
    let stdin = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = input == nil ? FileHandle.nullDevice : stdin
    try process.run()
    if let input {
      // The client may exit before reading it all (a usage error): EPIPE, not a test failure.
      try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
      try stdin.fileHandleForWriting.close()
    }
    return await offThePool {
      let out = output.fileHandleForReading.readDataToEndOfFile()
      let err = error.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return (
        process.terminationStatus, String(decoding: out, as: UTF8.self),
        String(decoding: err, as: UTF8.self)
      )
    }
  }

  @Test func infoCallSendFromStdinAndSelect() async throws {
    let daemon = try await DaemonProcess()
    let socket = daemon.socketPath

    let sent = try await python(
      ["send", "counter", "-"], socket: socket, input: #"{"type":"set","value":7}"#)
    #expect(sent.status == 0, "\(sent.err)")
    #expect(sent.out == #"{"outcome":"handled","state":{"count":7},"seq":1}"# + "\n")
    let notAnEvent = try await python(["send", "counter", "-"], socket: socket, input: "[1]")
    #expect(notAnEvent.status == 2)
    #expect(try JSON(parsing: notAnEvent.err)["error"]?["code"] == "usage")

    let selected = try await python(["get", "settings", "--select", "counterStep"], socket: socket)
    #expect(selected.out == #"{"seq":0,"select":"counterStep","value":1}"# + "\n")

    let info = try await python(["info"], socket: socket)
    #expect(info.status == 0, "\(info.err)")
    let reply = try JSON(parsing: info.out)
    #expect(reply["server"]?["pid"]?.intValue == Int(daemon.pid))
    #expect(reply["server"]?["socket"]?.stringValue == socket)
    #expect(reply["stats"]?["events"]?["handled"] == 1)
    #expect(reply["features"]?[0]?["seq"] == 1)

    let one = try await python(
      [#"call"#, #"{"id":"a","op":"get","feature":"counter"}"#], socket: socket)
    #expect(one.out == #"{"id":"a","ok":true,"state":{"count":7},"seq":1}"# + "\n")
    let lines = """
      {"op":"send","feature":"counter","event":{"type":"increment"}}

      {"id":2,"op":"get","feature":"nope"}
      {"id":3,"op":"get","feature":"counter"}
      """
    let many = try await python(["call", "-"], socket: socket, input: lines)
    #expect(many.status == 1)
    let replies = many.out.split(separator: "\n").map(String.init)
    #expect(replies.count == 3)
    #expect(try JSON(parsing: replies[0])["state"] == ["count": 8])
    #expect(try JSON(parsing: replies[1])["error"]?["code"] == "unknown_feature")
    #expect(
      try JSON(parsing: replies[2]) == ["id": 3, "ok": true, "state": ["count": 8], "seq": 2])
    let notJSON = try await python(["call", "{"], socket: socket)
    #expect(notJSON.status == 2)
  }

  @Test func repeatAndMonitorFilters() async throws {
    let daemon = try await DaemonProcess()
    let socket = daemon.socketPath
    let three = try await python(["-r", "3", "send", "counter", "increment"], socket: socket)
    #expect(three.status == 0, "\(three.err)")
    #expect(three.out.split(separator: "\n").count == 3)
    let once = try await python(
      ["-r", "2", "send", "counter", "-"], socket: socket, input: #"{"type":"decrement"}"#)
    #expect(once.out.hasSuffix(#"{"outcome":"handled","state":{"count":1},"seq":5}"# + "\n"))
    let watch = try await python(["-r", "2", "watch", "counter"], socket: socket)
    #expect(watch.status == 2)

    // Only failed events; the monitor is registered once info counts it.
    let monitor = Task {
      try await python(["monitor", "--outcome", "failed", "--count", "1"], socket: socket)
    }
    let client = try daemon.client()
    while try await client.call(#"{"op":"info"}"#)["clients"]?["monitoring"] != 1 {
      try await Task.sleep(for: .milliseconds(5))
    }
    _ = try await client.call(#"{"op":"send","feature":"counter","event":{"type":"increment"}}"#)
    _ = try await client.call(
      #"{"op":"send","feature":"settings","event":{"type":"set","key":"searchLimit","value":0}}"#)
    let printed = try await monitor.value
    #expect(printed.status == 0, "\(printed.err)")
    #expect(try JSON(parsing: printed.out)["feature"] == "settings")
  }

  @Test func historyGotoAndMonitorSeeEveryChange() async throws {
    let daemon = try await DaemonProcess()
    let socket = daemon.socketPath
    for _ in 0..<2 { _ = try await python(["send", "counter", "increment"], socket: socket) }

    let last = try await python(["history", "counter", "--last", "1"], socket: socket)
    #expect(last.status == 0, "\(last.err)")
    let transition = try JSON(parsing: last.out)
    #expect(transition["seq"] == 2)
    #expect(transition["cause"] == "event")
    #expect(transition["state"]?["count"] == 2)

    // A monitor sees the goto as a change with its cause and target.
    let monitor = Task { try await python(["monitor", "--count", "1"], socket: socket) }
    let client = try daemon.client()
    while try await client.call(#"{"op":"info"}"#)["clients"]?["monitoring"] != 1 {
      try await Task.sleep(for: .milliseconds(5))
    }
    let back = try await python(["goto", "counter", "1"], socket: socket)
    #expect(back.status == 0, "\(back.err)")
    #expect(back.out == #"{"changed":true,"state":{"count":1},"seq":3}"# + "\n")
    let pushed = try JSON(parsing: try await monitor.value.out)
    #expect(pushed["cause"] == "goto")
    #expect(pushed["target"] == 1)
    #expect(pushed["after"]?["count"] == 1)

    let since = try await python(["history", "counter", "--since", "3"], socket: socket)
    #expect(try JSON(parsing: since.out)["target"] == 1)

    // Refused, and nothing changes: a seq in the future, a seq that is not a number.
    let future = try await python(["goto", "counter", "99"], socket: socket)
    #expect(future.status == 1)
    #expect(try JSON(parsing: future.err)["error"]?["code"] == "seq_not_retained")
    let notANumber = try await python(["goto", "counter", "x"], socket: socket)
    #expect(notANumber.status == 2)
    #expect(try await client.call(#"{"op":"get","feature":"counter"}"#)["seq"] == 3)
  }

  @Test func errorsInAPipeAreJSONWithHints() async throws {
    let daemon = try await DaemonProcess()
    let socket = daemon.socketPath
    let typed = try await python(
      ["send", "settings", "set", "key=searchLimit", "value=50"], socket: socket)
    #expect(typed.status == 1)
    let error = try JSON(parsing: typed.err)
    #expect(error["status"] == 1)
    #expect(error["error"]?["code"] == "invalid_field")
    #expect(error["error"]?["hint"]?.stringValue?.contains("write value:=50") == true)

    let missing = daemon.directory.path + "/none.sock"
    let unreachable = try await python(["--human", "ping"], socket: missing)
    #expect(unreachable.status == 3)
    #expect(
      unreachable.err.contains("hint: is stated running? start it with: stated --socket \(missing)")
    )
  }
}
