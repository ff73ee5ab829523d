import Foundation
import Glibc
import Testing
import Wire

/// PROTOCOL.md's promises about undo and redo, against the real daemon: they are changes, so
/// one whose reply was received survives a crash (each round kills the daemon with SIGKILL
/// right after the reply), and only a change clears what can be redone.
@Suite("undo and redo", .serialized)
struct UndoRedoTests {
  static let increment = #"{"op":"send","feature":"counter","event":{"type":"increment"}}"#

  /// Starts a daemon on `directory`, runs `body` against it, then kills it with SIGKILL.
  func crashAfter(
    _ directory: TemporaryDirectory, _ body: (TestClient) async throws -> Void
  ) async throws {
    let daemon = try await DaemonProcess(directory: directory)
    try await body(try daemon.client())
    daemon.signal(SIGKILL)
    #expect(try await daemon.waitForExit() == SIGKILL)
  }

  func storedCount(_ directory: TemporaryDirectory) async throws -> Int? {
    let daemon = try await DaemonProcess(directory: directory)
    let count = try await daemon.client().call(#"{"op":"get","feature":"counter"}"#)["state"]?[
      "count"]?.intValue
    daemon.signal(SIGKILL)
    _ = try await daemon.waitForExit()
    return count
  }

  @Test func anAnsweredUndoSurvivesSIGKILL() async throws {
    let directory = TemporaryDirectory()
    for round in 1...6 {
      var undone: Int?
      try await crashAfter(directory) { client in
        // History lives in memory: each life makes the change it then undoes.
        #expect(try await client.call(Self.increment)["state"]?["count"] == JSON(round))
        let reply = try await client.call(#"{"op":"undo","feature":"counter"}"#)
        #expect(reply["changed"] == true, "\(reply)")
        undone = reply["state"]?["count"]?.intValue
      }
      #expect(undone == round - 1)
      #expect(try await storedCount(directory) == undone, "round \(round)")
      // Move on by one, so the next round's undo lands on a new count.
      try await crashAfter(directory) { client in
        _ = try await client.call(
          #"{"op":"send","feature":"counter","event":{"type":"set","value":\#(round)}}"#)
      }
    }
  }

  @Test func anAnsweredRedoSurvivesSIGKILL() async throws {
    let directory = TemporaryDirectory()
    for round in 1...6 {
      var redone: Int?
      try await crashAfter(directory) { client in
        _ = try await client.call(Self.increment)
        _ = try await client.call(#"{"op":"undo","feature":"counter"}"#)
        let reply = try await client.call(#"{"op":"redo","feature":"counter"}"#)
        #expect(reply["changed"] == true, "\(reply)")
        redone = reply["state"]?["count"]?.intValue
      }
      #expect(redone == round)
      #expect(try await storedCount(directory) == redone, "round \(round)")
    }
  }

  @Test func pipelinedUndoAndRedoAreAnsweredInOrder() async throws {
    let daemon = try await DaemonProcess()
    let client = try daemon.client()
    for _ in 1...3 { _ = try await client.call(Self.increment) }
    try client.write(
      [
        #"{"id":1,"op":"undo","feature":"counter"}"#, #"{"id":2,"op":"undo","feature":"counter"}"#,
        #"{"id":3,"op":"redo","feature":"counter"}"#, #"{"id":4,"op":"get","feature":"counter"}"#,
      ].joined(separator: "\n") + "\n")
    let replies = try await client.readLines(4).map { try JSON(parsing: $0) }
    #expect(replies.map { $0.int("id") } == [1, 2, 3, 4])
    #expect(replies.map { $0["state"]?["count"]?.intValue } == [2, 1, 2, 2])
    #expect(replies.map { $0.int("seq") } == [4, 5, 6, 6])
  }

  @Test func onlyAChangeClearsWhatCanBeRedone() async throws {
    let daemon = try await DaemonProcess()
    let client = try daemon.client()
    let undo = #"{"op":"undo","feature":"counter"}"#
    let redo = #"{"op":"redo","feature":"counter"}"#
    func set(_ value: Int) -> String {
      #"{"op":"send","feature":"counter","event":{"type":"set","value":\#(value)}}"#
    }
    _ = try await client.call(set(2))
    _ = try await client.call(undo)
    // An event that changes nothing keeps the redo step.
    #expect(try await client.call(set(0))["outcome"] == "handled")
    _ = try await client.call(
      #"{"op":"send","feature":"settings","event":{"type":"set","key":"counterMaximum","value":5}}"#
    )
    // So does a failed one.
    #expect(try await client.call(set(9))["outcome"] == "failed")
    #expect(try await client.call(redo)["state"] == ["count": 2])
    _ = try await client.call(undo)
    // A change clears it.
    _ = try await client.call(set(1))
    #expect(try await client.call(redo)["changed"] == false)
  }
}
