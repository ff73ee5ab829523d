#if canImport(Glibc)
  import Glibc
#endif

/// Splits a byte stream into "\n"-terminated frames.
///
/// Stand-in written by the server worktree so it compiles on its own; the Wire
/// module's real implementation replaces it at merge time (same API).
public struct LineFramer: Sendable {
  /// One step of framing output.
  public enum Event: Equatable, Sendable {
    /// A complete frame, without its "\n" and without a trailing "\r".
    case frame([UInt8])
    /// A frame longer than `maxFrameBytes`; `byteCount` bytes were seen when it was detected.
    case oversized(Int)
  }

  /// The largest frame, in bytes (terminator excluded), that is delivered.
  public let maxFrameBytes: Int

  private var buffer: [UInt8] = []
  /// Index of the first unconsumed byte in `buffer`.
  private var start = 0
  /// Bytes in `start..<scanned` are known to contain no "\n".
  private var scanned = 0
  /// True while discarding the rest of an oversized frame.
  private var skipping = false

  public init(maxFrameBytes: Int = 1 << 20) {
    self.maxFrameBytes = maxFrameBytes
  }

  /// Bytes buffered but not yet returned as frames.
  public var bufferedByteCount: Int { buffer.count - start }

  public mutating func append(_ bytes: UnsafeRawBufferPointer) {
    compactIfWorthIt()
    buffer.append(contentsOf: bytes)
  }

  public mutating func append(contentsOf bytes: [UInt8]) {
    compactIfWorthIt()
    buffer.append(contentsOf: bytes)
  }

  /// Next complete frame without "\n" (and without a trailing "\r"), or nil when more
  /// bytes are needed. Blank lines are skipped. An over-long frame yields
  /// `.oversized(byteCount)` once, then bytes are skipped through the next "\n".
  public mutating func next() -> Event? {
    while true {
      guard let newline = firstNewline() else {
        if skipping {
          // Nothing buffered can belong to a frame we deliver: drop it.
          start = buffer.count
          scanned = buffer.count
        } else if buffer.count - start > maxFrameBytes {
          let count = buffer.count - start
          skipping = true
          start = buffer.count
          scanned = buffer.count
          return .oversized(count)
        }
        return nil
      }
      let lineStart = start
      start = newline + 1
      scanned = start
      if skipping {
        skipping = false
        continue
      }
      var end = newline
      if end > lineStart, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
      if end - lineStart > maxFrameBytes { return .oversized(end - lineStart) }
      if end == lineStart { continue }
      return .frame(Array(buffer[lineStart..<end]))
    }
  }

  private mutating func firstNewline() -> Int? {
    let from = max(start, scanned)
    guard from < buffer.count else { return nil }
    let found = buffer.withUnsafeBytes { all -> Int? in
      guard let base = all.baseAddress else { return nil }
      guard let hit = memchr(base + from, 10, all.count - from) else { return nil }
      return UnsafeRawPointer(hit) - base
    }
    scanned = found ?? buffer.count
    return found
  }

  /// Drops consumed bytes once they dominate the buffer, keeping appends amortized O(n).
  private mutating func compactIfWorthIt() {
    guard start > 0 else { return }
    if start == buffer.count {
      buffer.removeAll(keepingCapacity: true)
    } else if start >= 4096, start * 2 >= buffer.count {
      buffer.removeSubrange(0..<start)
    } else {
      return
    }
    scanned -= start
    start = 0
  }
}
