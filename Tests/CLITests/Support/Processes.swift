import Foundation
import Glibc
import ProcessSupport
import Wire

/// The binaries `swift build` put next to the test bundle (`.build/<triple>/debug/`);
/// STATECTL_BINARY and STATED_BINARY select others.
enum Binaries {
  static var directory: String {
    let bundle =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: bundle).deletingLastPathComponent().path
  }

  static var statectl: String {
    ProcessInfo.processInfo.environment["STATECTL_BINARY"] ?? directory + "/statectl"
  }

  static var stated: String {
    ProcessInfo.processInfo.environment["STATED_BINARY"] ?? directory + "/stated"
  }
}

struct ProcessFailure: Error, CustomStringConvertible {
  let description: String
}

/// Waits for `process` to exit without blocking a concurrency thread; SIGKILLs it and
/// throws after `timeout`. Its exit status, or the signal that ended it.
func waitForExit(_ process: Process, timeout: Duration = .seconds(30)) async throws -> Int32 {
  try await waitForEnd(process, timeout: timeout).status
}

/// Waits for `process` to end (see `waitForExit`); how it ended. Read that, not `process`'s
/// termination properties: Foundation may not have seen the end yet (see `ChildExit`).
func waitForEnd(
  _ process: Process, timeout: Duration = .seconds(30)
) async throws -> ChildExit.End {
  guard let end = try await ChildExit.waitForEnd(of: process, timeout: timeout) else {
    throw ProcessFailure(
      description: "\(process.executableURL?.path ?? "?") did not exit in time")
  }
  return end
}

/// A finished `statectl` process.
struct ProcessResult {
  var status: Int32
  var standardOutput: String
  var standardError: String

  /// Each stdout line parsed as JSON.
  var jsonLines: [JSON] {
    get throws {
      try standardOutput.split(separator: "\n").map { try JSONParser().parse(String($0)) }
    }
  }
}

/// Reads a pipe as the data comes, without blocking.
final class PipeLines {
  private let fd: Int32
  private var buffer: [UInt8] = []
  private(set) var ended = false

  init(_ pipe: Pipe) {
    fd = pipe.fileHandleForReading.fileDescriptor
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
  }

  /// Reads what is available now into the buffer.
  func pump() {
    var chunk = [UInt8](repeating: 0, count: 4096)
    while !ended {
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count > 0 {
        buffer += chunk[..<count]
      } else {
        if count == 0 { ended = true }
        return
      }
    }
  }

  /// The next complete line; nil at end of stream. Throws after `timeout`.
  func next(timeout: Duration = .seconds(20)) async throws -> String? {
    let deadline = ContinuousClock.now + timeout
    while true {
      pump()
      if let newline = buffer.firstIndex(of: 10) {
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
        buffer.removeSubrange(...newline)
        return line
      }
      if ended { return nil }
      if ContinuousClock.now >= deadline { throw ProcessFailure(description: "no line in time") }
      try await Task.sleep(for: .milliseconds(2))
    }
  }

  /// Everything not yet returned, once the writer is gone.
  func rest() -> String {
    pump()
    defer { buffer.removeAll() }
    return String(decoding: buffer, as: UTF8.self)
  }
}

/// Starts `statectl` with pipes for stdout and stderr (so it is not on a terminal).
func startStatectl(
  _ arguments: [String], environment: [String: String]? = nil, prefix: [String] = []
) throws -> (process: Process, output: Pipe, error: Pipe) {
  let process = Process()
  if prefix.isEmpty {
    process.executableURL = URL(fileURLWithPath: Binaries.statectl)
    process.arguments = arguments
  } else {
    process.executableURL = URL(fileURLWithPath: prefix[0])
    process.arguments = Array(prefix.dropFirst()) + [Binaries.statectl] + arguments
  }
  var env = environment ?? ProcessInfo.processInfo.environment
  env["STATED_SOCKET"] = environment?["STATED_SOCKET"]
  process.environment = env
  let output = Pipe()
  let error = Pipe()
  process.standardOutput = output
  process.standardError = error
  process.standardInput = FileHandle.nullDevice
  try process.run()
  return (process, output, error)
}

/// Runs `statectl` to completion. `prefix` runs it through another program (setpriv).
func statectl(
  _ arguments: [String], environment: [String: String]? = nil, prefix: [String] = []
) async throws -> ProcessResult {
  let (process, output, error) = try startStatectl(
    arguments, environment: environment, prefix: prefix)
  return try await collect(process, output: output, error: error)
}

/// Waits for a started process, draining its pipes while it runs so that a large output
/// cannot block it; returns its status and output.
func collect(_ process: Process, output: Pipe, error: Pipe) async throws -> ProcessResult {
  let out = PipeLines(output)
  let err = PipeLines(error)
  while !ChildExit.hasEnded(process) {
    out.pump()
    err.pump()
    try await Task.sleep(for: .milliseconds(1))
  }
  let status = try await waitForExit(process)
  return ProcessResult(status: status, standardOutput: out.rest(), standardError: err.rest())
}

/// A real `stated` on a private socket and state directory, killed at deinit.
final class StatedProcess {
  let directory: String
  let socketPath: String
  let process = Process()
  private let logPath: String

  /// `defaultSocket`: let the daemon choose its socket from the environment.
  init(extraEnvironment: [String: String] = [:], defaultSocket: Bool = false) async throws {
    var template = Array("/tmp/cli-e2e.XXXXXX".utf8CString)
    let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    guard created != nil else { throw ProcessFailure(description: "mkdtemp failed") }
    directory = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    socketPath =
      defaultSocket
      ? extraEnvironment["STATED_SOCKET"]
        ?? (extraEnvironment["XDG_RUNTIME_DIR"] ?? "/nonexistent") + "/stated/stated.sock"
      : directory + "/stated.sock"
    logPath = directory + "/stated.log"
    guard FileManager.default.isExecutableFile(atPath: Binaries.stated) else {
      throw ProcessFailure(description: "no stated at \(Binaries.stated); run `swift build` first")
    }
    process.executableURL = URL(fileURLWithPath: Binaries.stated)
    process.arguments =
      (defaultSocket ? [] : ["--socket", socketPath]) + ["--state-dir", directory + "/state"]
    var environment = ProcessInfo.processInfo.environment
    environment["LISTEN_PID"] = nil
    environment["LISTEN_FDS"] = nil
    environment["STATED_SOCKET"] = nil
    environment["NOTIFY_SOCKET"] = nil
    environment.merge(extraEnvironment) { $1 }
    process.environment = environment
    _ = FileManager.default.createFile(atPath: logPath, contents: nil)
    process.standardOutput = FileHandle(forWritingAtPath: logPath)
    process.standardError = FileHandle(forWritingAtPath: logPath)
    process.standardInput = FileHandle.nullDevice
    try process.run()
    try await waitUntilServing()
  }

  deinit {
    if !ChildExit.hasEnded(process) {
      kill(process.processIdentifier, SIGKILL)
      ChildExit.wait(for: process.processIdentifier)
    }
    try? FileManager.default.removeItem(atPath: directory)
  }

  var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

  private func waitUntilServing() async throws {
    let deadline = ContinuousClock.now + .seconds(30)
    while ContinuousClock.now < deadline {
      if let connection = try? WireConnection.connect(path: socketPath, timeout: .seconds(1)) {
        connection.close()
        return
      }
      guard process.isRunning else {
        throw ProcessFailure(description: "stated exited before serving:\n\(log)")
      }
      try await Task.sleep(for: .milliseconds(5))
    }
    throw ProcessFailure(description: "stated did not serve in time:\n\(log)")
  }

  /// Sends `signal` and waits for the daemon to exit.
  func stop(_ signal: Int32 = SIGTERM) async throws {
    kill(process.processIdentifier, signal)
    _ = try await waitForExit(process)
  }
}

/// The package's root directory (for Scripts/ and Distribution/).
let packageRoot: String = {
  var url = URL(fileURLWithPath: #filePath)
  for _ in 0..<4 { url.deleteLastPathComponent() }  // the file, Support/, CLITests/, Tests/
  return url.path
}()

/// Whether `tool` is an executable on PATH.
func isInstalled(_ tool: String) -> Bool {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  return path.split(separator: ":").contains {
    FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
  }
}

/// Runs any program to completion with pipes; returns its status and output.
func runTool(
  _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
  input: String? = nil
) async throws -> ProcessResult {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  if let environment { process.environment = environment }
  let output = Pipe()
  let error = Pipe()
  process.standardOutput = output
  process.standardError = error
  let inputPipe = Pipe()
  process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
  try process.run()
  if let input {
    // A program that exits before reading all of it (a usage error) closes the pipe: that
    // EPIPE is what its status and output then tell, not the test's failure to write.
    try? inputPipe.fileHandleForWriting.write(contentsOf: Data(input.utf8))
    try inputPipe.fileHandleForWriting.close()
  }
  return try await collect(process, output: output, error: error)
}
