import Foundation
import Glibc

/// A program run on a pseudo-terminal, as a person at a terminal runs it: its standard input,
/// output and error are the terminal's slave side; the test types into the master side and
/// reads what the program draws there.
final class PseudoTerminalProcess {
  let pid: pid_t
  private let master: Int32
  /// Everything the program wrote, escape sequences included.
  private(set) var transcript = ""
  /// How much of the transcript (in UTF-8 bytes) `expect` has already matched.
  private var matched = 0
  private var exitStatus: Int32?

  init(_ program: String, _ arguments: [String], environment: [String: String]) throws {
    // posix_openpt, unlockpt and ptsname, by hand: Glibc's module hides them (they need
    // _XOPEN_SOURCE). The ioctl numbers are Linux's generic ones (x86-64 and arm64 alike).
    let unlock: UInt = 0x4004_5431  // TIOCSPTLCK
    let number: UInt = 0x8004_5430  // TIOCGPTN
    master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
    var locked: Int32 = 0
    var index: UInt32 = 0
    guard master >= 0, ioctl(master, unlock, &locked) == 0, ioctl(master, number, &index) == 0
    else {
      throw ProcessFailure(description: "no pseudo-terminal: \(String(cString: strerror(errno)))")
    }
    let slave = open("/dev/pts/\(index)", O_RDWR | O_NOCTTY)
    guard slave >= 0 else { throw ProcessFailure(description: "cannot open the terminal's slave") }
    defer { close(slave) }
    // Wide enough that no line scrolls sideways.
    var size = winsize(ws_row: 40, ws_col: 200, ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for fd: Int32 in 0...2 { posix_spawn_file_actions_adddup2(&actions, slave, fd) }
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var child = pid_t()
    let spawned = posix_spawn(&child, program, &actions, nil, argv, envp)
    guard spawned == 0 else {
      throw ProcessFailure(
        description: "cannot start \(program): \(String(cString: strerror(spawned)))")
    }
    pid = child
  }

  deinit {
    if exitStatus == nil {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
    close(master)
  }

  /// Types `text` as keys (raw bytes: "\r" is Enter, "\t" Tab, "\u{1B}[A" Up).
  func type(_ text: String) {
    var bytes = Array(text.utf8)
    while !bytes.isEmpty {
      let written = write(master, bytes, bytes.count)
      if written > 0 {
        bytes.removeFirst(written)
      } else if errno != EAGAIN && errno != EINTR {
        return
      }
    }
  }

  /// Waits until the program has written `text` after what earlier calls matched, and returns
  /// what it wrote up to and including it. Throws if the program ends first, or after
  /// `timeout` (a bound on a hang, not a timing assertion).
  @discardableResult
  func expect(_ text: String, timeout: Duration = .seconds(30)) async throws -> String {
    let deadline = ContinuousClock.now + timeout
    while true {
      let ended = pump()
      let start = transcript.utf8.index(transcript.startIndex, offsetBy: matched)
      if let found = transcript[start...].range(of: text) {
        matched = transcript.utf8.distance(from: transcript.startIndex, to: found.upperBound)
        return String(transcript[start..<found.upperBound])
      }
      if ended || ContinuousClock.now >= deadline {
        throw ProcessFailure(
          description: "did not see \(text.debugDescription); after the last match: "
            + String(transcript[start...]).debugDescription)
      }
      try await Task.sleep(for: .milliseconds(2))
    }
  }

  /// Waits for the program to exit and returns its exit status.
  func waitForExit(timeout: Duration = .seconds(30)) async throws -> Int32 {
    let deadline = ContinuousClock.now + timeout
    while true {
      pump()
      var status: Int32 = 0
      if waitpid(pid, &status, WNOHANG) == pid {
        exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return exitStatus!
      }
      if ContinuousClock.now >= deadline {
        throw ProcessFailure(
          description: "the program did not exit; it wrote: \(transcript.debugDescription)")
      }
      try await Task.sleep(for: .milliseconds(2))
    }
  }

  /// Reads what is there; true once the terminal is closed (the program ended: EIO).
  @discardableResult
  private func pump() -> Bool {
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(master, &chunk, chunk.count)
      if count > 0 {
        transcript += String(decoding: chunk[..<count], as: UTF8.self)
      } else {
        return count < 0 && errno != EAGAIN && errno != EINTR
      }
    }
  }
}
