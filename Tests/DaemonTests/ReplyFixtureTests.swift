import Foundation
import Glibc
import Testing

// Byte-exact replies. Tests/Fixtures/replies.txt is a script of requests covering every op and
// every error code a real daemon can give, with the replies a real `stated` gave (fresh state
// directory, search answered by a fixed stand-in for the iTunes API). This test replays it and
// compares every byte, so any change to any reply shows up as a diff of that file.
//
// Changed a reply on purpose (a new op, protocol 2, a better message)? Add the new requests
// (`N> …`, and one `N<` line per line you expect back: see ReplyScript for the notation), then
// regenerate, as root (the storage_failed and permission_denied part needs it), and review:
//
//     STATED_RECORD_REPLIES=1 swift test --filter ReplyFixtureTests
//     git diff Tests/Fixtures/replies.txt

@Suite("Reply fixture")
struct ReplyFixtureTests {
  static let fixture = ProtocolDocumentTests.packageRoot.appendingPathComponent(
    "Tests/Fixtures/replies.txt"
  ).path

  @Test func everyReplyIsByteForByteTheRecordedOne() async throws {
    try await replay(straightThrough: true)
  }

  /// The same script with every event queued (no event straight through the loop turn, see
  /// RequestDispatcher): the same bytes.
  @Test func theQueuedRouteGivesTheSameBytes() async throws {
    try await replay(straightThrough: false)
  }

  func replay(straightThrough: Bool) async throws {
    let recorded = try String(contentsOfFile: Self.fixture, encoding: .utf8)
    let steps = try ReplyScript.steps(of: recorded)
    let directory = TemporaryDirectory()
    let stateDirectory = directory.path + "/state"
    let asRoot =
      getuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0
      && access("/usr/bin/python3", X_OK) == 0
      && StorageFaultTests.mountTmpfs(stateDirectory, size: "256k")
    defer { if asRoot { StorageFaultTests.unmount(stateDirectory) } }
    let iTunes = try FakeITunes()
    var environment = ProcessInfo.processInfo.environment
    environment["STATED_ITUNES_URL"] = iTunes.url
    environment["STATED_STRAIGHT_THROUGH"] = straightThrough ? "1" : "0"
    let daemon = try await DaemonProcess(directory: directory, environment: environment)
    var run = ReplyScriptRun(daemon: daemon, directory: directory.path)
    let replayed = try await run.replay(steps, asRoot: asRoot)
    daemon.signal(SIGTERM)
    #expect(try await daemon.waitForExit() == 0)

    // Without root the part after `!root-only` is not run: compare (and record) the rest.
    let (head, tail) = Self.split(recorded)
    if ProcessInfo.processInfo.environment["STATED_RECORD_REPLIES"] == "1" {
      guard straightThrough else { return }  // recorded once; the other route is compared
      try (asRoot ? replayed : replayed + tail).write(
        toFile: Self.fixture, atomically: true, encoding: .utf8)
      print("recorded \(Self.fixture)\(asRoot ? "" : " (the root-only part kept as it was)")")
      return
    }
    // The fixture pins the built-in features' replies. A workspace that serves other features
    // too (Scripts/new-feature added one) answers `features`, `describe` and the errors that
    // list features differently: that is no regression of the daemon, so say so and stop.
    if let served = Self.featuresLine(replayed), served != Self.featuresLine(recorded) {
      print(
        "skipped replies.txt: this workspace serves other features than the recorded ones "
          + "(\(served)); to pin its replies: STATED_RECORD_REPLIES=1 swift test --filter "
          + "ReplyFixtureTests")
      return
    }
    if !asRoot { print("skipped the root-only part of replies.txt: it needs root") }
    let expected = asRoot ? recorded : head
    if Array(replayed.utf8) != Array(expected.utf8) {
      Issue.record(Self.firstDifference(expected: expected, replayed: replayed))
    }
  }

  /// The reply to the script's `features` request: the list of features the daemon serves.
  static func featuresLine(_ script: String) -> Substring? {
    script.split(separator: "\n").first { $0.hasPrefix(#"1< {"id":"list","ok":true,"features""#) }
  }

  /// The script up to `!root-only` (exclusive), and the rest.
  static func split(_ script: String) -> (head: String, tail: String) {
    guard let marker = script.range(of: "\n!root-only\n") else { return (script, "") }
    let head = String(script[...marker.lowerBound])
    return (head, String(script[script.index(after: marker.lowerBound)...]))
  }

  static func firstDifference(expected: String, replayed: String) -> Comment {
    let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let have = replayed.split(separator: "\n", omittingEmptySubsequences: false)
    let line =
      zip(want, have).enumerated().first { $0.element.0 != $0.element.1 }?.offset
      ?? min(want.count, have.count)
    let wanted = line < want.count ? String(want[line]) : "(end)"
    let got = line < have.count ? String(have[line]) : "(end)"
    return """
      replies.txt line \(line + 1) differs
       recorded: \(wanted)
       replayed: \(got)
      If the change is intended: STATED_RECORD_REPLIES=1 swift test --filter ReplyFixtureTests
      """
  }
}
