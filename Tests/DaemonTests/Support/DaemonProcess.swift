import Foundation
import Glibc
import ProcessSupport
import Testing

/// A real `stated` process on a private socket and state directory.
///
/// The binary is the one `swift build` / `swift test` put next to the test bundle
/// (`.build/<triple>/debug/stated`); set STATED_BINARY to test another.
final class DaemonProcess {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  static var binaryPath: String {
    if let path = ProcessInfo.processInfo.environment["STATED_BINARY"] { return path }
    let bundle =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent(
      "stated"
    ).path
  }

  let directory: TemporaryDirectory
  let socketPath: String
  let stateDirectory: String
  let logPath: String
  let process = Process()

  /// Starts `stated --socket <dir>/s.sock --state-dir <dir>/state` plus `arguments`.
  /// - Parameter waitUntilServing: returns once a client can connect (or throws on exit).
  init(
    directory: TemporaryDirectory = TemporaryDirectory(), arguments: [String] = [],
    environment: [String: String]? = nil, defaultPaths: Bool = false,
    currentDirectory: String? = nil, waitUntilServing: Bool = true
  ) async throws {
    self.directory = directory
    socketPath = directory.socketPath
    stateDirectory = directory.path + "/state"
    logPath = directory.path + "/stated-\(UUID().uuidString.prefix(8)).log"
    guard FileManager.default.isExecutableFile(atPath: Self.binaryPath) else {
      throw Failure(
        description: "no stated binary at \(Self.binaryPath); run `swift build` first")
    }
    process.executableURL = URL(fileURLWithPath: Self.binaryPath)
    process.arguments =
      (defaultPaths ? [] : ["--socket", socketPath, "--state-dir", stateDirectory]) + arguments
    var env = environment ?? ProcessInfo.processInfo.environment
    env["LISTEN_PID"] = nil
    env["LISTEN_FDS"] = nil
    process.environment = env
    if let currentDirectory {
      process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory)
    }
    _ = FileManager.default.createFile(atPath: logPath, contents: nil)
    process.standardError = FileHandle(forWritingAtPath: logPath)
    process.standardOutput = FileHandle(forWritingAtPath: logPath)
    process.standardInput = FileHandle.nullDevice
    try process.run()
    if waitUntilServing { try await self.waitUntilServing(at: socketPath) }
  }

  deinit {
    if !ChildExit.hasEnded(process) {
      kill(process.processIdentifier, SIGKILL)
      ChildExit.wait(for: process.processIdentifier)
    }
  }

  var pid: Int32 { process.processIdentifier }

  /// What the daemon wrote to stderr and stdout so far.
  var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

  /// Waits until the log holds `text` (the daemon may answer a client before it logs that it
  /// serves); false on timeout.
  func waitForLog(_ text: String, timeout: Duration = .seconds(30)) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if log.contains(text) { return true }
      try? await Task.sleep(for: .milliseconds(10))
    }
    return log.contains(text)
  }

  /// Waits until a client can connect to `path`; throws if the daemon exits first.
  func waitUntilServing(at path: String, timeout: Duration = .seconds(30)) async throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if (try? TestClient(path: path)) != nil { return }
      guard process.isRunning else {
        throw Failure(
          description: "stated exited (\(process.terminationStatus)) before serving:\n\(log)")
      }
      try await Task.sleep(for: .milliseconds(5))
    }
    throw Failure(description: "stated did not serve \(path) in time:\n\(log)")
  }

  func client() throws -> TestClient { try TestClient(path: socketPath) }

  func signal(_ number: Int32) { kill(process.processIdentifier, number) }

  /// Waits for the process to exit; returns its status (throws on timeout, after SIGKILL).
  @discardableResult
  func waitForExit(timeout: Duration = .seconds(30)) async throws -> Int32 {
    guard
      let end = try await ChildExit.waitForEnd(
        of: process, timeout: timeout, poll: .milliseconds(5))
    else { throw Failure(description: "stated did not exit in time:\n\(log)") }
    return end.status
  }

  /// Runs `stated` with `arguments` to completion (for --help, usage errors, refusals).
  static func run(
    _ arguments: [String], environment: [String: String]? = nil, timeout: Duration = .seconds(30)
  ) async throws -> (status: Int32, output: String) {
    let directory = TemporaryDirectory()
    let daemon = try await DaemonProcess(
      directory: directory, arguments: arguments, environment: environment, defaultPaths: true,
      waitUntilServing: false)
    let status = try await daemon.waitForExit(timeout: timeout)
    return (status, daemon.log)
  }
}
