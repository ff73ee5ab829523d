import Foundation
import Glibc
import Testing
import Wire

/// Runs every example of PROTOCOL.md against a real `stated`, in document order, so the
/// document cannot drift from the daemon.
///
/// Conventions (PROTOCOL.md explains them to readers):
/// - ```` ```jsonl ````: `> ` lines are sent, `< ` lines are the expected next line received,
///   compared as JSON; `2> ` / `2< ` use a second connection (any digit: that connection).
///   The string `"…"` matches any value.
/// - ```` ```console ````: `$ ` lines run with `sh -c` (cwd: the package, `STATED_SOCKET` set);
///   the lines after one are its expected output (compared as JSON when they parse).
/// - ```` ```python ```` then ```` ```output ````: the snippet runs with `python3` and must print
///   exactly the output block.
/// - ```` ```json ````: illustrations of message shapes; each line must parse as a reply or push.
/// - ```` ```ndjson ````: an illustrated file (a recording); each line must be a JSON object.
/// - The features: the document shows the built-in ones (its `features` reply); a daemon with
///   more (Scripts/new-feature) must still pass. An array ending in `"…"` matches any further
///   elements, and the list of the documented features' names in an expected message stands
///   for the list of those the daemon serves, taken from its `features` reply.
@Suite("PROTOCOL.md")
struct ProtocolDocumentTests {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  struct Block {
    let language: String
    let line: Int
    let lines: [String]
  }

  static func blocks(of text: String) -> [Block] {
    var blocks: [Block] = []
    var current: (language: String, line: Int, lines: [String])?
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      if line.hasPrefix("```") {
        if let open = current {
          blocks.append(Block(language: open.language, line: open.line, lines: open.lines))
          current = nil
        } else {
          current = (String(line.dropFirst(3)), index + 1, [])
        }
      } else if current != nil {
        current!.lines.append(String(line))
      }
    }
    return blocks
  }

  @Test func everyExampleIsWhatTheDaemonAnswers() async throws {
    let text = try String(
      contentsOf: Self.packageRoot.appendingPathComponent("PROTOCOL.md"), encoding: .utf8)
    let blocks = Self.blocks(of: text)
    #expect(blocks.filter { $0.language == "jsonl" }.count >= 10)
    let daemon = try await DaemonProcess()
    let tools = try ToolShims(for: ["socat", "nc"])
    let served = Self.featureNames(of: try await daemon.client().call(#"{"op":"features"}"#))
    let documented = try Self.documentedFeatures(blocks)
    #expect(Array(served.prefix(documented.count)) == documented)
    let featureList = (documented.joined(separator: ", "), served.joined(separator: ", "))
    var exchanges = 0
    var index = 0
    while index < blocks.count {
      let block = blocks[index]
      switch block.language {
      case "jsonl":
        exchanges += try await runExchange(block, daemon, featureList: featureList)
      case "console":
        try await runConsole(block, daemon, tools)
      case "python":
        let output = blocks.indices.contains(index + 1) ? blocks[index + 1] : nil
        try #require(
          output?.language == "output", "python block at line \(block.line) needs an output block")
        try await runPython(block, expected: output!, daemon)
        index += 1
      case "json":
        for line in block.lines where !line.isEmpty {
          #expect(throws: Never.self, "line \(block.line): \(line)") {
            try Message(parsing: Array(line.utf8))
          }
        }
      case "ndjson":
        for line in block.lines where !line.isEmpty {
          #expect(
            (try? JSON(parsing: line))?.objectValue != nil,
            "PROTOCOL.md line \(block.line): not a JSON object: \(line)")
        }
      case "sh":
        break  // setup shown to readers (export STATED_SOCKET=…), run implicitly
      default:
        Issue.record("PROTOCOL.md line \(block.line): unknown block kind '\(block.language)'")
      }
      index += 1
    }
    #expect(exchanges >= 40, "too few request/reply lines were checked: \(exchanges)")
    daemon.signal(SIGTERM)
    #expect(try await daemon.waitForExit() == 0)
  }

  /// Runs one jsonl block; returns the number of lines checked.
  private func runExchange(
    _ block: Block, _ daemon: DaemonProcess, featureList: (documented: String, served: String)
  ) async throws -> Int {
    var clients: [Int: TestClient] = [:]
    var checked = 0
    for (offset, line) in block.lines.enumerated() where !line.isEmpty {
      let place = "PROTOCOL.md line \(block.line + offset + 1)"
      let marker = try #require(line.firstIndex { $0 == ">" || $0 == "<" }, "\(place): \(line)")
      let connection = Int(line[..<marker]) ?? 1
      let body = String(line[line.index(marker, offsetBy: 2)...])
      if clients[connection] == nil { clients[connection] = try daemon.client() }
      let client = clients[connection]!
      if line[marker] == ">" {
        try client.write(body + "\n")
      } else {
        let expected = try JSON(
          parsing: body.replacingOccurrences(
            of: featureList.documented, with: featureList.served))
        guard let received = try await client.readLine(timeout: .seconds(20)) else {
          Issue.record("\(place): connection closed, expected \(body)")
          return checked
        }
        let actual = try JSON(parsing: received)
        #expect(
          Self.matches(expected, actual), "\(place)\n expected: \(body)\n received: \(received)")
      }
      checked += 1
    }
    return checked
  }

  private func runConsole(_ block: Block, _ daemon: DaemonProcess, _ tools: ToolShims) async throws
  {
    var commands: [(line: Int, command: String, expected: [String])] = []
    for (offset, line) in block.lines.enumerated() where !line.isEmpty {
      if line.hasPrefix("$ ") {
        commands.append((block.line + offset + 1, String(line.dropFirst(2)), []))
      } else {
        try #require(!commands.isEmpty, "console output before a command at \(block.line)")
        commands[commands.count - 1].expected.append(line)
      }
    }
    for command in commands {
      let (status, output) = try await run(
        "/bin/sh", ["-c", command.command], daemon: daemon, path: tools.path)
      let place = "PROTOCOL.md line \(command.line): \(command.command)"
      #expect(status == 0, "\(place) exited \(status): \(output)")
      let lines = output.split(separator: "\n").map(String.init)
      #expect(lines.count == command.expected.count, "\(place)\n output: \(output)")
      for (expected, actual) in zip(command.expected, lines) {
        if let expectedJSON = try? JSON(parsing: expected),
          let actualJSON = try? JSON(parsing: actual)
        {
          #expect(
            Self.matches(expectedJSON, actualJSON),
            "\(place)\n expected: \(expected)\n got: \(actual)")
        } else {
          #expect(expected == actual, "\(place)")
        }
      }
    }
  }

  private func runPython(_ block: Block, expected: Block, _ daemon: DaemonProcess) async throws {
    let (status, output) = try await run(
      "/usr/bin/env", ["python3", "-c", block.lines.joined(separator: "\n")], daemon: daemon,
      path: nil)
    #expect(status == 0, "python at PROTOCOL.md line \(block.line): \(output)")
    let want = expected.lines.joined(separator: "\n").trimmingCharacters(
      in: .whitespacesAndNewlines)
    #expect(
      output.trimmingCharacters(in: .whitespacesAndNewlines) == want,
      "python at PROTOCOL.md line \(block.line)")
  }

  private func run(
    _ executable: String, _ arguments: [String], daemon: DaemonProcess, path: String?
  ) async throws -> (Int32, String) {
    var environment = ProcessInfo.processInfo.environment
    environment["STATED_SOCKET"] = daemon.socketPath
    if let path { environment["PATH"] = path + ":" + (environment["PATH"] ?? "/usr/bin:/bin") }
    return try await runProcess(
      executable, arguments, environment: environment, directory: Self.packageRoot)
  }

  /// The names in a `features` reply, in order.
  static func featureNames(of reply: JSON) -> [String] {
    reply["features"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
  }

  /// The names in the document's own `features` reply.
  static func documentedFeatures(_ blocks: [Block]) throws -> [String] {
    for block in blocks where block.language == "jsonl" {
      for line in block.lines where line.hasPrefix("< ") && line.contains(#""features":["#) {
        return featureNames(of: try JSON(parsing: String(line.dropFirst(2))))
      }
    }
    Issue.record("PROTOCOL.md shows no features reply")
    return []
  }

  /// `"…"` in `expected` matches anything (as an array's last element: any further elements); objects match member by member, in any order.
  static func matches(_ expected: JSON, _ actual: JSON) -> Bool {
    switch (expected, actual) {
    case (.string("…"), _):
      return true
    case (.object(let want), .object(let have)):
      return want.count == have.count
        && want.allSatisfy { member in have[member.key].map { matches(member.value, $0) } ?? false }
    case (.array(let want), .array(let have)) where want.last == .string("…"):
      return want.count - 1 <= have.count && zip(want.dropLast(), have).allSatisfy(matches)
    case (.array(let want), .array(let have)):
      return want.count == have.count && zip(want, have).allSatisfy { matches($0, $1) }
    default:
      return expected == actual
    }
  }
}

/// Stand-ins for `socat` and `nc` where they are not installed, so the console examples still
/// run (their requests and replies are still checked; only the tool is not exercised).
final class ToolShims {
  let directory = TemporaryDirectory()
  var path: String { directory.path }
  private(set) var substituted: [String] = []

  init(for tools: [String]) throws {
    let script = """
      #!/usr/bin/env python3
      import socket, sys
      path = sys.argv[-1].split("UNIX-CONNECT:")[-1]
      sock = socket.socket(socket.AF_UNIX); sock.connect(path)
      sock.sendall(sys.stdin.buffer.read()); sock.shutdown(socket.SHUT_WR)
      while True:
          chunk = sock.recv(65536)
          if not chunk: break
          sys.stdout.buffer.write(chunk)
      """
    for tool in tools where !Self.isInstalled(tool) {
      let file = directory.path + "/" + tool
      try script.write(toFile: file, atomically: true, encoding: .utf8)
      chmod(file, 0o755)
      substituted.append(tool)
    }
  }

  static func isInstalled(_ tool: String) -> Bool {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").contains { access("\($0)/\(tool)", X_OK) == 0 }
  }
}
