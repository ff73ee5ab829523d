/// The ordered bytes waiting to be written to one connection.
///
/// Replies are appended to a growing `tail` buffer (one copy, no per-reply allocation
/// once warm). A push takes a slot in the order; while it is unwritten, a newer push
/// under the same key replaces its bytes *in place*. Keeping the slot's original
/// position bounds the queue to (replies + distinct keys) entries; moving it to the
/// end would need tombstones that grow without bound under alternating keys.
struct OutboundQueue {
  private enum Chunk {
    case bytes([UInt8])
    case push(key: String)
  }

  /// Sealed chunks in write order; `head` is the next one to take.
  private var chunks: [Chunk] = []
  private var head = 0
  /// Replies queued after the last sealed chunk.
  private var tail: [UInt8] = []
  /// Latest bytes for each push slot that is still in `chunks`.
  private var pushes: [String: [UInt8]] = [:]

  /// Bytes queued and not yet taken by `take`.
  private(set) var byteCount = 0

  var isEmpty: Bool { byteCount == 0 && head == chunks.count }

  mutating func appendReply(_ line: [UInt8]) {
    tail.append(contentsOf: line)
    byteCount += line.count
  }

  /// Appends reply lines, taking `lines`' storage when no reply waits (no copy); `lines` comes
  /// back empty, with the storage the queue had (buffers go round: a writer's, the queue's,
  /// the loop's write buffer, and back).
  mutating func appendReplies(_ lines: inout [UInt8]) {
    byteCount += lines.count
    if tail.isEmpty {
      swap(&tail, &lines)
    } else {
      tail.append(contentsOf: lines)
    }
    lines.removeAll(keepingCapacity: true)
  }

  /// Returns true when the push took a new slot, false when it replaced an unwritten one.
  @discardableResult
  mutating func appendPush(_ line: [UInt8], key: String) -> Bool {
    if let previous = pushes.updateValue(line, forKey: key) {
      byteCount += line.count - previous.count
      return false
    }
    sealTail()
    chunks.append(.push(key: key))
    byteCount += line.count
    return true
  }

  /// Moves queued bytes, in order, onto the end of `out` until it holds at least `budget`
  /// bytes. Pushes left behind stay coalescible. Returns the number of bytes moved.
  mutating func take(into out: inout [UInt8], budget: Int) -> Int {
    let before = out.count
    while out.count < budget, head < chunks.count {
      switch chunks[head] {
      case .bytes(let bytes):
        out.append(contentsOf: bytes)
      case .push(let key):
        out.append(contentsOf: pushes.removeValue(forKey: key) ?? [])
      }
      chunks[head] = .bytes([])  // release the storage now, not at compaction
      head += 1
    }
    compactChunks()
    if head == chunks.count, !tail.isEmpty, out.count < budget {
      if out.isEmpty {
        // Hand the whole reply buffer over and recycle the caller's empty one.
        swap(&out, &tail)
      } else {
        out.append(contentsOf: tail)
        tail.removeAll(keepingCapacity: true)
      }
    }
    let moved = out.count - before
    byteCount -= moved
    return moved
  }

  /// Drops everything (the connection is gone).
  mutating func removeAll() {
    self = OutboundQueue()
  }

  private mutating func sealTail() {
    guard !tail.isEmpty else { return }
    chunks.append(.bytes(tail))
    tail = []
  }

  private mutating func compactChunks() {
    if head == chunks.count {
      chunks.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 64, head * 2 >= chunks.count {
      chunks.removeSubrange(0..<head)
      head = 0
    }
  }
}
