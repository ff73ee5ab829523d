import Foundation
import Glibc
import Testing
import Wire

/// A real daemon whose state directory fills up: changes that cannot be stored fail with
/// `storage_failed`, nobody is told of them, reads keep working, and once there is room again
/// changes succeed, with none of the refused ones stored after all.
@Suite struct StorageFaultTests {
  static let increment = #"{"op":"send","feature":"counter","event":{"type":"increment"}}"#
  static let get = #"{"op":"get","feature":"counter"}"#

  /// A small tmpfs mounted on `path` (root only); nil when mounting is not possible here.
  static func mountTmpfs(_ path: String, size: String) -> Bool {
    guard getuid() == 0 else { return false }
    mkdir(path, 0o700)
    let mount = Process()
    mount.executableURL = URL(fileURLWithPath: "/bin/mount")
    mount.arguments = ["-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", path]
    mount.standardError = FileHandle.nullDevice
    guard (try? mount.run()) != nil else { return false }
    mount.waitUntilExit()
    return mount.terminationStatus == 0
  }

  /// A test's full-disk state directory: mounted, or false after saying the test is skipped.
  static func mountTmpfsForTest(_ path: String, size: String) -> Bool {
    if mountTmpfs(path, size: size) { return true }
    print("skipped: mounting a tmpfs needs root and CAP_SYS_ADMIN")
    return false
  }

  /// Lazily (`-l`): a test that failed with its daemon still running must not leave the mount
  /// behind, busy, under /tmp.
  static func unmount(_ path: String) {
    let umount = Process()
    umount.executableURL = URL(fileURLWithPath: "/bin/umount")
    umount.arguments = ["-l", path]
    try? umount.run()
    umount.waitUntilExit()
  }

  /// Fills the file system holding `path` until it refuses another byte.
  static func fill(_ path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { return }
    defer { close(fd) }
    let chunk = [UInt8](repeating: 0x5A, count: 4096)
    while chunk.withUnsafeBytes({ Glibc.write(fd, $0.baseAddress!, $0.count) }) > 0 {}
    // The last partial page, byte by byte.
    var byte: UInt8 = 0x5A
    while Glibc.write(fd, &byte, 1) > 0 {}
  }

  @Test(arguments: ["always", "deferred"])
  func aFullDiskFailsChangesAndStoresNoneOfThemLater(sync: String) async throws {
    let directory = TemporaryDirectory()
    let state = directory.path + "/state"
    guard Self.mountTmpfsForTest(state, size: "128k") else { return }
    defer { Self.unmount(state) }
    var daemon: DaemonProcess? = try await DaemonProcess(
      directory: directory, arguments: ["--sync", sync])
    let client = try #require(try daemon?.client())
    let watcher = try #require(try daemon?.client())
    _ = try await watcher.call(#"{"op":"watch","feature":"counter"}"#)
    let monitor = try #require(try daemon?.client())
    _ = try await monitor.call(#"{"op":"monitor","features":["counter"]}"#)
    for _ in 0..<5 { _ = try await client.call(Self.increment) }

    Self.fill(state + "/filler")
    var handled: [Int] = []
    var failed = 0
    for _ in 0..<300 {
      let reply = try await client.call(Self.increment)
      if reply["ok"] == true {
        handled.append(try #require(reply["state"]?["count"]?.intValue))
      } else {
        #expect(reply.errorCode == "storage_failed", "\(reply)")
        #expect(reply.errorMessage.contains("No space left on device"), "\(reply)")
        #expect(reply["outcome"] == "failed")
        // The reply tells the truth: the state is the stored one.
        #expect(reply["state"]?["count"]?.intValue == 5 + handled.count)
        failed += 1
      }
    }
    #expect(failed > 0, "the full disk refused nothing")
    #expect(
      handled == Array(6..<(6 + handled.count)), "each acknowledged reply shows its own change")
    let stored = 5 + handled.count
    // Reads keep working and show only what is stored.
    #expect(try await client.call(Self.get)["state"]?["count"]?.intValue == stored)

    unlink(state + "/filler")
    let after = try await client.call(Self.increment)
    #expect(after["ok"] == true, "\(after)")
    #expect(after["state"]?["count"]?.intValue == stored + 1)

    // The watcher saw only stored counts, in order, never one that was refused.
    var pushed: [Int] = []
    while pushed.last != stored + 1 {
      let push = try await watcher.next()
      pushed.append(try #require(push["state"]?["count"]?.intValue))
    }
    #expect(pushed == pushed.sorted())
    #expect(Set(pushed).isSubset(of: Set(Array(0...5) + handled + [stored + 1])), "\(pushed)")

    // The monitor tells of every refused event, with nothing changed by it.
    var refusedSeen = 0
    var concluded = 0
    while concluded < 5 + 300 + 1 {
      let push = try await monitor.next()
      guard push["push"] == "event" else { continue }
      concluded += 1
      if push["outcome"] == "failed" {
        refusedSeen += 1
        #expect(push["error"]?["code"] == "storage_failed", "\(push)")
        #expect(push["before"] == push["after"], "\(push)")
        #expect(push["after"]?["count"]?.intValue ?? Int.max <= stored, "\(push)")
      }
    }
    #expect(refusedSeen == failed)

    daemon?.signal(SIGTERM)
    #expect(try await daemon?.waitForExit() == 0)
    daemon = nil
    let restarted = try await DaemonProcess(directory: directory, arguments: ["--sync", sync])
    let check = try restarted.client()
    #expect(try await check.call(Self.get)["state"]?["count"]?.intValue == stored + 1)
    restarted.signal(SIGTERM)
    _ = try await restarted.waitForExit()
  }
}
