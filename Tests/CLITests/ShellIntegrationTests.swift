import Foundation
import Glibc
import StatectlCore
import Testing
import Wire

/// What Scripts/install puts beside the binaries: the completion scripts, run in a real bash,
/// and the manual pages, rendered by man and groff without warnings.
@Suite(.serialized) struct ShellIntegrationTests {
  /// Completes `line` (the cursor at its end) with the bash script, as bash does on Tab.
  static func bashComplete(_ line: String, socket: String) async throws -> [String] {
    let directory = try TemporaryTree()
    let script = directory.path + "/statectl.bash"
    let generated = try await statectl(["completions", "bash"])
    try generated.standardOutput.write(toFile: script, atomically: true, encoding: .utf8)
    let words = line.split(separator: " ", omittingEmptySubsequences: false)
    let program = """
      source '\(script)'
      COMP_LINE='\(line)'
      COMP_POINT=${#COMP_LINE}
      COMP_WORDS=(\(words.map { "'\($0)'" }.joined(separator: " ")))
      COMP_CWORD=\(words.count - 1)
      _statectl
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    var environment = ProcessInfo.processInfo.environment
    environment["PATH"] = Binaries.directory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    environment["STATED_SOCKET"] = socket
    let result = try await runTool(
      "/bin/bash", ["--norc", "-c", program], environment: environment)
    #expect(result.status == 0, "\(result.standardError)")
    return result.standardOutput.split(separator: "\n").map(String.init)
  }

  @Test func bashCompletesFromTheRunningDaemon() async throws {
    let daemon = try await StatedProcess()
    let socket = daemon.socketPath
    #expect(try await Self.bashComplete("statectl send cou", socket: socket) == ["counter"])
    #expect(try await Self.bashComplete("statectl send counter s", socket: socket) == ["set"])
    #expect(
      try await Self.bashComplete("statectl send counter set ", socket: socket) == ["value:="])
    #expect(
      try await Self.bashComplete("statectl send settings set key=x ", socket: socket)
        == ["value:="])
    // A value from describe's list: bash replaces what follows the '=' (COMP_WORDBREAKS).
    #expect(
      try await Self.bashComplete("statectl send settings set key=search", socket: socket)
        == ["searchBackend", "searchCountry", "searchLimit", "searchThrottleMs"])
    #expect(
      try await Self.bashComplete(
        "statectl send settings set key=searchBackend value=", socket: socket)
        == ["packages", "itunes"])
    #expect(
      try await Self.bashComplete(
        "statectl send settings set key=searchLimit value=", socket: socket)
        == [])
    #expect(
      try await Self.bashComplete("statectl send counter set value:", socket: socket) == ["="])
    #expect(
      try await Self.bashComplete("statectl monitor --outcome f", socket: socket) == ["failed"])
    #expect(try await Self.bashComplete("statectl mon", socket: socket) == ["monitor"])
    // The other features the daemon serves (`features`; a generated one included).
    let features = try await statectl(["features", "--socket", socket])
    let served = try #require(
      try features.jsonLines.first?["features"]?.arrayValue?.compactMap { $0["name"]?.stringValue })
    #expect(served.prefix(3) == ["counter", "settings", "search"])
    #expect(
      try await Self.bashComplete("statectl watch counter ", socket: socket)
        == served.filter { $0 != "counter" })
    #expect(
      try await Self.bashComplete("statectl watch counter --s", socket: socket)
        == ["--socket", "--select"])
  }

  @Test func bashCompletesShippedFeaturesWithoutADaemon() async throws {
    let nowhere = "/tmp/no-stated-here/stated.sock"
    #expect(try await Self.bashComplete("statectl send cou", socket: nowhere) == ["counter"])
    #expect(
      try await Self.bashComplete("statectl send search ", socket: nowhere)
        == ["search", "toggleMark", "clear"])
    #expect(
      try await Self.bashComplete("statectl send search search ", socket: nowhere) == ["term="])
  }

  /// Feature names come from the daemon, not from a list in statectl.
  @Test func candidatesComeFromDescribe() {
    let daemon = FakeDaemon { request in
      Reply.success(
        id: request.id,
        fields: [
          "feature": "lights",
          "events": [
            ["type": "dim", "fields": [["name": "level", "type": "integer"]]],
            ["type": "rename", "fields": [["name": "label", "type": "string"]]],
          ],
        ])
    }
    let completion = Completion(environment: { _ in daemon.path }, uid: 1)
    #expect(completion.candidates(["send", "lights", ""]) == ["dim", "rename"])
    daemon.finish()
  }

  // A contributor without zsh or fish sees these skipped, with the reason; CI (CI=true, where
  // Scripts/test installs both) always runs them, and fails if either is missing there.
  @Test(.enabled(if: shellCheckRuns("zsh"), "zsh is not installed: apt-get install zsh"))
  func zshParsesItsScript() async throws {
    try await checkScriptParses(shell: "zsh")
  }

  @Test(.enabled(if: shellCheckRuns("fish"), "fish is not installed: apt-get install fish"))
  func fishParsesItsScript() async throws {
    try await checkScriptParses(shell: "fish")
  }

  func checkScriptParses(shell: String) async throws {
    try #require(
      isInstalled(shell),
      "\(shell) is not installed: apt-get install \(shell) (Scripts/test --install)")
    let directory = try TemporaryTree()
    let script = directory.path + "/statectl.\(shell)"
    let generated = try await statectl(["completions", shell])
    try generated.standardOutput.write(toFile: script, atomically: true, encoding: .utf8)
    let check = try await runTool(
      "/usr/bin/env", [shell, shell == "zsh" ? "-n" : "--no-execute", script])
    #expect(check.status == 0, "\(check.standardError)")
  }

  @Test func manualPagesRenderWithoutWarnings() async throws {
    try #require(isInstalled("man") && isInstalled("groff"), "apt-get install man-db groff")
    let directory = try TemporaryTree()
    let made = try await runTool(
      packageRoot + "/Scripts/manpages", [directory.path, Binaries.directory])
    #expect(made.status == 0, "\(made.standardError)")
    let pages = [
      ("man1/statectl.1", "STATECTL(1)"), ("man8/stated.8", "STATED(8)"),
      ("man7/stated-protocol.7", "STATED-PROTOCOL(7)"),
    ]
    for (page, heading) in pages {
      let path = directory.path + "/" + page
      let groff = try await runTool("/usr/bin/env", ["groff", "-man", "-Tutf8", "-ww", "-z", path])
      #expect(groff.status == 0 && groff.standardError == "", "\(page): \(groff.standardError)")
      var environment = ProcessInfo.processInfo.environment
      environment["MANWIDTH"] = "80"
      let man = try await runTool("/usr/bin/env", ["man", "-l", path], environment: environment)
      #expect(man.status == 0 && man.standardError == "", "\(page): \(man.standardError)")
      #expect(man.standardOutput.hasPrefix(heading))
    }
    // Made from the help texts: every command and every option is there.
    let statectlPage = try String(
      contentsOfFile: directory.path + "/man1/statectl.1", encoding: .utf8)
    for command in CommandName.allCases {
      #expect(statectlPage.contains(".SS \(command.rawValue)\n"))
    }
    let statedHelp = try await runTool(Binaries.stated, ["--help"])
    let statedPage = try String(contentsOfFile: directory.path + "/man8/stated.8", encoding: .utf8)
    let options = statedHelp.standardOutput.split(whereSeparator: { $0 == " " || $0 == "\n" })
      .filter { $0.hasPrefix("--") }
    #expect(options.count > 5)
    for option in Set(options) {
      #expect(statedPage.contains(option.replacingOccurrences(of: "-", with: #"\-"#)))
    }
  }
}

/// Whether a completion script check for `shell` runs: when the shell is installed, and always
/// in CI, which installs it (so that a missing one fails there instead of being skipped).
func shellCheckRuns(_ shell: String) -> Bool {
  isInstalled(shell) || ProcessInfo.processInfo.environment["CI"] == "true"
}
