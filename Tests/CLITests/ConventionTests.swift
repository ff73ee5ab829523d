import Foundation
import Glibc
import Testing
import Wire

/// statectl and Scripts/stated_client.py follow one convention: `field=text` and `field:=json`,
/// the same exit statuses, STATED_SOCKET (which stated honours too), `socket` to print the
/// path, and JSON errors with `--json`. Both run as processes against a real stated.
@Suite(.serialized) struct ConventionTests {
  static let python = packageRoot + "/Scripts/stated_client.py"

  /// Each client's command line for `arguments`.
  enum Client: CaseIterable {
    case statectl, python

    func run(_ arguments: [String], environment: [String: String]) async throws -> ProcessResult {
      switch self {
      case .statectl:
        return try await CLITests.statectl(arguments, environment: environment)
      case .python:
        return try await runTool(
          "/usr/bin/env", ["python3", ConventionTests.python] + arguments, environment: environment)
      }
    }
  }

  static func environment(_ extra: [String: String]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["STATED_SOCKET"] = nil
    environment.merge(extra) { $1 }
    return environment
  }

  @Test(arguments: Client.allCases)
  func fieldsExitStatusesAndTheSocketVariable(client: Client) async throws {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    let socket = directory.path + "/s.sock"
    // stated takes its socket from STATED_SOCKET too.
    let daemon = try await StatedProcess(
      extraEnvironment: ["STATED_SOCKET": socket], defaultSocket: true)
    let environment = Self.environment(["STATED_SOCKET": socket])

    let set = try await client.run(
      ["send", "counter", "set", "value:=5"], environment: environment)
    #expect(set.status == 0, "\(set.standardError)")
    #expect(try JSON(parsing: set.standardOutput)["state"] == ["count": 5])
    // field=text is a string: the daemon refuses it for an integer (1), naming the type.
    let text = try await client.run(
      ["send", "counter", "set", "value=5"], environment: environment)
    #expect(text.status == 1)
    #expect(text.standardError.contains("invalid_field"))
    let country = try await client.run(
      ["send", "settings", "set", "key=searchCountry", "value=de"], environment: environment)
    #expect(country.status == 0, "\(country.standardError)")
    // Not JSON after := is a usage error (2), before anything is sent.
    let bad = try await client.run(
      ["send", "counter", "set", "value:=x"], environment: environment)
    #expect(bad.status == 2)
    #expect(bad.standardError.contains("value=x"))
    let unknown = try await client.run(["get", "nope"], environment: environment)
    #expect(unknown.status == 1)
    #expect(unknown.standardError.contains("unknown_feature"))

    let refusedJSON = try await client.run(["--json", "get", "nope"], environment: environment)
    let refusal = try JSON(parsing: refusedJSON.standardError)
    #expect(refusal["status"] == 1)
    #expect(refusal["error"]?["code"] == "unknown_feature")

    try await daemon.stop()
    let unreachable = try await client.run(["--json", "get", "counter"], environment: environment)
    #expect(unreachable.status == 3)
    let report = try JSON(parsing: unreachable.standardError)
    #expect(report["ok"] == false)
    #expect(report["status"] == 3)
    #expect(report["error"]?["code"] == "unreachable")
  }

  @Test(arguments: Client.allCases)
  func socketPrintsThePathInUse(client: Client) async throws {
    var environment = Self.environment(["STATED_SOCKET": "/tmp/elsewhere.sock"])
    #expect(
      try await client.run(["socket"], environment: environment).standardOutput
        == "/tmp/elsewhere.sock\n")
    environment["STATED_SOCKET"] = nil
    environment["XDG_RUNTIME_DIR"] = "/run/user/77"
    #expect(
      try await client.run(["socket"], environment: environment).standardOutput
        == "/run/user/77/stated/stated.sock\n")
    // The documented one-liners work without XDG_RUNTIME_DIR.
    environment["XDG_RUNTIME_DIR"] = nil
    #expect(
      try await client.run(["socket"], environment: environment).standardOutput
        == "/tmp/stated-\(geteuid())/stated.sock\n")
  }
}
