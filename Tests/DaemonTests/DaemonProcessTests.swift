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
    #expect(version.output.contains("protocol 1"))
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
    #expect(try await client.call(#"{"op":"ping"}"#)["protocol"] == 1)
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
    #expect(await eventually { verbose.log.contains("debug: CounterBloc: increment handled") })
    #expect(verbose.log.contains("info: client 1 connected"))
    #expect(verbose.log.contains("debug: CounterBloc: event increment"))

    let quiet = try await DaemonProcess(arguments: ["--log-level=warning"])
    let other = try quiet.client()
    _ = try await other.call(
      #"{"op":"send","feature":"counter","event":{"type":"set","value":"x"}}"#)
    quiet.signal(SIGTERM)
    #expect(try await quiet.waitForExit() == 0)
    #expect(!quiet.log.contains("info:"))
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
