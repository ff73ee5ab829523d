import Foundation
import Glibc
import Testing
import Wire

/// Issue 17: search marks on a real full disk follow the rule every change follows. A mark
/// change that cannot be stored fails with `storage_failed` and is not in the reply, not in
/// `get`, not pushed, not built upon once there is room again, and not there after a SIGKILL.
@Suite struct MarksStorageFaultTests {
  static let get = #"{"op":"get","feature":"search"}"#
  static let clearMarks = #"{"op":"send","feature":"search","event":{"type":"clearMarks"}}"#

  static func toggle(_ id: Int64) -> String {
    #"{"op":"send","feature":"search","event":{"type":"toggleMark","id":\#(id)}}"#
  }

  /// The marked ids a reply, get or push shows.
  static func marks(_ message: JSON) -> [Int64]? {
    message["state"]?["marks"]?.arrayValue?.compactMap { $0["id"]?.int64Value }
  }

  @Test(arguments: ["always", "deferred"])
  func refusedMarkChangesAreNeverShownBuiltUponOrStored(sync: String) async throws {
    let directory = TemporaryDirectory()
    let state = directory.path + "/state"
    guard StorageFaultTests.mountTmpfsForTest(state, size: "128k") else { return }
    defer { StorageFaultTests.unmount(state) }
    var daemon: DaemonProcess? = try await DaemonProcess(
      directory: directory, arguments: ["--sync", sync])
    let client = try #require(try daemon?.client())
    let watcher = try #require(try daemon?.client())
    _ = try await watcher.call(#"{"op":"watch","feature":"search"}"#)
    // Something to mark: the machine's package catalog has many packages named lib….
    let found = try await client.call(
      #"{"op":"send","feature":"search","event":{"type":"search","term":"lib"}}"#)
    let ids = try #require(
      found["state"]?["results"]?.arrayValue?.compactMap { $0["id"]?.int64Value })
    try #require(ids.count >= 8, "\(found)")
    var marked = [ids[0], ids[1]].sorted()  // the acknowledged marks, ascending
    #expect(Self.marks(try await client.call(Self.toggle(ids[0]))) == [ids[0]])
    #expect(Self.marks(try await client.call(Self.toggle(ids[1]))) == marked)

    StorageFaultTests.fill(state + "/filler")
    // The journal's last page may still take small records: counter increments use it up.
    var increments = 0
    while try await client.call(StorageFaultTests.increment)["ok"] == true {
      increments += 1
      try #require(increments < 300, "the full disk refused no increment")
    }
    // Every mark change is bigger than an increment: each is refused now, an unmark too.
    for id in ids.dropFirst(2).prefix(ids.count - 3) + [ids[0]] {
      let reply = try await client.call(Self.toggle(id))
      #expect(reply.errorCode == "storage_failed", "\(reply)")
      #expect(reply.errorMessage.contains("No space left on device"), "\(reply)")
      #expect(reply["outcome"] == "failed")
      #expect(Self.marks(reply) == marked, "the reply shows the stored marks: \(reply)")
      #expect(Self.marks(try await client.call(Self.get)) == marked)
    }
    // A setting refused beside them rolls back too.
    let setting = try await client.call(
      #"{"op":"send","feature":"settings","event":{"type":"set","key":"counterStep","value":5}}"#)
    #expect(setting.errorCode == "storage_failed", "\(setting)")
    #expect(setting["state"]?["counterStep"] == 1)
    let settings = try await client.call(#"{"op":"get","feature":"settings"}"#)
    #expect(settings["state"]?["counterStep"] == 1)
    let cleared = try await client.call(Self.clearMarks)
    #expect(cleared.errorCode == "storage_failed", "\(cleared)")
    #expect(Self.marks(cleared) == marked)
    #expect(Self.marks(try await client.call(Self.get)) == marked)

    // Room again: the next change is built on the stored marks, not on the refused ones.
    unlink(state + "/filler")
    let last = try #require(ids.last)
    let after = try await client.call(Self.toggle(last))
    #expect(after["ok"] == true, "\(after)")
    #expect(Self.marks(after) == (marked + [last]).sorted())

    // The watcher saw only stored marks: none, the first, the first two, then three.
    var pushed: [[Int64]] = []
    while pushed.last != Self.marks(after) {
      let marks = try #require(Self.marks(try await watcher.next()))
      if pushed.last != marks { pushed.append(marks) }
    }
    #expect(pushed == [[], [ids[0]], marked, (marked + [last]).sorted()], "\(pushed)")
    marked = (marked + [last]).sorted()

    // A SIGKILL stores nothing more: after the restart, exactly the acknowledged marks.
    daemon?.signal(SIGKILL)
    #expect(try await daemon?.waitForExit() == SIGKILL)
    daemon = nil
    let restarted = try await DaemonProcess(directory: directory, arguments: ["--sync", sync])
    #expect(Self.marks(try await restarted.client().call(Self.get)) == marked)
    // And a clear that can be stored clears them, for good.
    #expect(Self.marks(try await restarted.client().call(Self.clearMarks)) == [])
    restarted.signal(SIGKILL)
    _ = try await restarted.waitForExit()
    let again = try await DaemonProcess(directory: directory, arguments: ["--sync", sync])
    #expect(Self.marks(try await again.client().call(Self.get)) == [])
    again.signal(SIGTERM)
    _ = try await again.waitForExit()
  }
}
