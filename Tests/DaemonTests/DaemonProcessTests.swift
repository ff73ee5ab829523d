import Foundation
import Glibc
import Testing
import Wire

/// The real `stated` binary: command line, paths, permissions, refusal, shutdown.
@Suite("stated process", .serialized)
struct DaemonProcessTests {
  @Test func helpAndVersion() async throws {
    let help = try await DaemonProcess.run(["--help"])
    #expect(help.status == 0)
    for topic in ["USAGE", "--socket", "--state-dir", "EXAMPLES", "SIGNALS", "EXIT STATUS"] {
      #expect(help.output.contains(topic), "help lacks \(topic)")
    }
    let version = try await DaemonProcess.run(["--version"])
    #expect(version.status == 0)
    #expect(version.output.contains("protocol 2"))
  }

  @Test(arguments: [
    (["--bogus"], "unknown option '--bogus'"),
    (["extra"], "unexpected argument 'extra'"),
    (["--socket"], "option '--socket' needs a value"),
    (["--max-frame-bytes", "lots"], "--max-frame-bytes must be an integer"),
    (["--max-frame-bytes=1"], "--max-frame-bytes must be an integer"),
    (["--log-level", "loud"], "--log-level must be one of error, warning, info, debug"),
  ])
  func badArgumentsExitWithUsage(arguments: [String], message: String) async throws {
    let result = try await DaemonProcess.run(arguments)
    #expect(result.status == 64)
    #expect(result.output.contains(message), "\(result.output)")
    #expect(result.output.contains("stated --help"))
  }

  @Test func defaultPathsFollowXDGAndTheSocketIsPrivate() async throws {
    let directory = TemporaryDirectory()
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_RUNTIME_DIR"] = directory.path + "/run"
    environment["XDG_STATE_HOME"] = directory.path + "/statehome"
    mkdir(directory.path + "/run", 0o700)
    let daemon = try await DaemonProcess(
      directory: directory, environment: environment, defaultPaths: true, waitUntilServing: false)
    let socket = directory.path + "/run/stated/stated.sock"
    try await daemon.waitUntilServing(at: socket)
    #expect(permissions(of: socket) == 0o600)
    #expect(permissions(of: directory.path + "/run/stated") == 0o700)
    #expect(permissions(of: directory.path + "/statehome/stated") == 0o700)
    let client = try TestClient(path: socket)
    #expect(try await client.call(#"{"op":"ping"}"#)["protocol"] == 2)
    daemon.signal(SIGTERM)
    #expect(try await daemon.waitForExit() == 0)
    #expect(!fileExists(socket))
  }

  @Test func aSecondDaemonIsRefusedAndTheFirstKeepsServing() async throws {
    let first = try await DaemonProcess()
    let second = try await DaemonProcess(directory: first.directory, waitUntilServing: false)
    #expect(try await second.waitForExit() == 69)
    #expect(second.log.contains("already running"), "\(second.log)")
    #expect(second.log.contains("pid \(first.pid)"))
    let client = try first.client()
    #expect(try await client.call(#"{"op":"ping"}"#)["ok"] == true)
  }

  @Test func aSecondDaemonOnTheSameStateDirectoryIsRefusedBeforeTouchingIt() async throws {
    let first = try await DaemonProcess()
    let client = try first.client()
    _ = try await client.call(
      #"{"op":"send","feature":"counter","event":{"type":"set","value":5}}"#)
    let stored = URL(fileURLWithPath: first.stateDirectory + "/journal.00000001.log")
    let before = try Data(contentsOf: stored)
    let otherSocket = first.directory.path + "/other.sock"
    // Another socket, the same state directory: both would write it, the last one winning.
    let second = try await DaemonProcess(
      directory: first.directory,
      arguments: ["--socket", otherSocket, "--state-dir", first.stateDirectory],
      defaultPaths: true, waitUntilServing: false)
    #expect(try await second.waitForExit() == 69)
    let refusal = second.log
    #expect(
      refusal.contains("already running on the state directory \(first.stateDirectory)"),
      "\(refusal)")
    #expect(refusal.contains("pid \(first.pid)"), "\(refusal)")
    #expect(refusal.contains("socket \(first.socketPath)"), "\(refusal)")
    #expect(refusal.split(separator: "\n").count == 1, "\(refusal)")
    #expect(!refusal.contains("restored"), "it read the state: \(refusal)")
    #expect(!fileExists(otherSocket))
    #expect(try Data(contentsOf: stored) == before)
    // The first one still owns it: its next change is stored, and nothing else changed it.
    _ = try await client.call(#"{"op":"send","feature":"counter","event":{"type":"increment"}}"#)
    first.signal(SIGTERM)
    #expect(try await first.waitForExit() == 0)
    #expect(!fileExists(first.stateDirectory + "/daemon.lock"))
    let restarted = try await DaemonProcess(directory: first.directory)
    #expect(
      try await restarted.client().call(#"{"op":"get","feature":"counter"}"#)["state"] == [
        "count": 6
      ])
  }

  @Test func aDaemonRefusedForItsSocketSaysSoBeforeTouchingState() async throws {
    let first = try await DaemonProcess()
    let otherState = first.directory.path + "/other-state"
    let second = try await DaemonProcess(
      directory: first.directory,
      arguments: ["--socket", first.socketPath, "--state-dir", otherState],
      defaultPaths: true, waitUntilServing: false)
    #expect(try await second.waitForExit() == 69)
    #expect(second.log.contains("already running on \(first.socketPath) (pid \(first.pid))"))
    #expect(!second.log.contains("restored"), "\(second.log)")
    // Its state directory holds nothing: no state was read or written, no lock left behind.
    #expect(try FileManager.default.contentsOfDirectory(atPath: otherState) == [])
    #expect(try await first.client().call(#"{"op":"ping"}"#)["ok"] == true)
  }

  @Test func aSecondDaemonStartsOnceTheFirstIsKilled() async throws {
    let first = try await DaemonProcess()
    first.signal(SIGKILL)
    _ = try await first.waitForExit()
    // The kernel released both locks; the files left behind name a dead pid.
    #expect(fileExists(first.stateDirectory + "/daemon.lock"))
    let second = try await DaemonProcess(directory: first.directory)
    #expect(try await second.client().call(#"{"op":"ping"}"#)["ok"] == true)
  }

  @Test func aBadStateDirectoryGetsAOneLineReason() async throws {
    let directory = TemporaryDirectory()
    let file = directory.path + "/file"
    _ = FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
    for (stateDirectory, reason) in [
      (file + "/state", "\(file) is not a directory"),
      (file, "it is not a directory"),
    ] {
      let result = try await DaemonProcess.run([
        "--socket", directory.socketPath, "--state-dir", stateDirectory,
      ])
      #expect(result.status == 73)
      #expect(
        result.output == "stated: cannot use the state directory \(stateDirectory): \(reason); "
          + "pass --state-dir PATH to use another\n")
      #expect(!fileExists(directory.socketPath))
    }
  }

  @Test func aRelativeStateDirectoryIsTakenFromTheCurrentDirectory() async throws {
    let directory = TemporaryDirectory()
    let daemon = try await DaemonProcess(
      directory: directory, arguments: ["--socket", directory.socketPath, "--state-dir", "rel"],
      defaultPaths: true, currentDirectory: directory.path)
    _ = try await daemon.client().call(
      #"{"op":"send","feature":"counter","event":{"type":"increment"}}"#)
    let stored = try FileManager.default.contentsOfDirectory(atPath: directory.path + "/rel")
    #expect(stored.contains { $0.hasPrefix("journal.") }, "\(stored)")
    #expect(await daemon.waitForLog("state in \(directory.path)/rel;"), "\(daemon.log)")
  }

  @Test func aStaleSocketFileIsReplaced() async throws {
    let directory = TemporaryDirectory()
    // A socket file nobody listens on, as a crashed daemon leaves behind.
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: directory.socketPath.utf8) }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    #expect(bound == 0)
    close(fd)
    #expect(fileExists(directory.socketPath))
    let daemon = try await DaemonProcess(directory: directory)
    let client = try daemon.client()
    #expect(try await client.call(#"{"op":"ping"}"#)["ok"] == true)
  }

  @Test func logLevelsSelectWhatIsLogged() async throws {
    let verbose = try await DaemonProcess(arguments: ["--log-level", "debug"])
    #expect(permissions(of: verbose.socketPath) == 0o600)
    let client = try verbose.client()
    _ = try await client.call(#"{"op":"send","feature":"counter","event":{"type":"increment"}}"#)
    // Events and states in the protocol's words.
    #expect(
      await eventually {
        verbose.log.contains(#"debug: CounterBloc: {"type":"increment"} handled"#)
      }
    )
    #expect(verbose.log.contains("debug: client 1 connected"))
    #expect(verbose.log.contains(#"debug: CounterBloc: event {"type":"increment"}"#))
    #expect(verbose.log.contains(#"debug: CounterBloc: state {"count":1}"#))

    let quiet = try await DaemonProcess(arguments: ["--log-level=warning"])
    let other = try quiet.client()
    _ = try await other.call(
      #"{"op":"send","feature":"counter","event":{"type":"set","value":"x"}}"#)
    quiet.signal(SIGTERM)
    #expect(try await quiet.waitForExit() == 0)
    #expect(!quiet.log.contains("info:"))
    #expect(!quiet.log.contains("connected"))
    #expect(!quiet.log.contains("debug:"))
  }

  @Test func sigintStopsCleanly() async throws {
    let daemon = try await DaemonProcess()
    let client = try daemon.client()
    #expect(try await client.call(#"{"op":"ping"}"#)["ok"] == true)
    daemon.signal(SIGINT)
    #expect(try await daemon.waitForExit() == 0)
    #expect(try await client.readToEnd().isEmpty)
    #expect(!fileExists(daemon.socketPath))
    #expect(!fileExists(daemon.socketPath + ".lock"))
    #expect(daemon.log.contains("stopped"))
  }
}
