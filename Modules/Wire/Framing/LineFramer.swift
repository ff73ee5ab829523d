import Glibc  // Linux only, like the daemon

/// Splits a byte stream into newline-terminated frames (the protocol's framing).
///
/// Feed it whatever `read` returned, then drain `next()` until nil:
///
/// ```swift
/// var framer = LineFramer()
/// framer.append(contentsOf: Array("{\"op\":\"ping\"}\n{\"op\":".utf8))
/// while let event = framer.next() {
///   switch event {
///   case .frame(let line): handle(line)         // {"op":"ping"}
///   case .oversized(let count): reject(count)   // reply frame_too_large
///   }
/// }
/// framer.bufferedByteCount  // 6: `{"op":` waits for more bytes
/// ```
///
/// - A frame excludes its `\n` and a `\r` just before it. Blank lines (empty, or only
///   spaces, tabs and carriage returns: JSON whitespace) are skipped, unless longer than
///   `maxFrameBytes`: those are oversized like any other.
/// - A line longer than `maxFrameBytes` yields `.oversized` once; its bytes are
///   discarded up to and including the next `\n`, then framing continues. The
///   count is the line's length if its end was already seen, otherwise the
///   number of its bytes received when it passed the limit (more than
///   `maxFrameBytes`).
/// - Memory stays bounded: at most `maxFrameBytes + 1` bytes of an incomplete
///   line are held, whatever the peer sends. Frames found by `append` wait in a
///   queue until `next()` returns them.
/// - Each byte is scanned once (with `memchr`); nothing is rescanned.
/// - Received bytes are kept in one buffer, reused: ``next(into:)`` copies a frame into the
///   caller's array, so a server that reuses that array allocates nothing per frame; when the
///   buffer holds that one frame alone, the two arrays trade storage instead (no copy).
///   ``next(from:at:into:)`` gives frames as they lie in the bytes just read (no copy), and
///   buffers only what is left of them.
public struct LineFramer: Sendable {
  /// One result of framing.
  public enum Event: Equatable, Sendable {
    /// A complete line, without its terminator.
    case frame([UInt8])
    /// A line that exceeded `maxFrameBytes`, with the byte count described above.
    case oversized(Int)
  }

  /// What ``next(into:)`` found.
  public enum Found: Equatable, Sendable {
    /// A complete line, now the contents of the array passed.
    case frame
    /// A line that exceeded `maxFrameBytes`, with the byte count described above.
    case oversized(Int)
  }

  /// What ``next(from:at:into:)`` found.
  public enum Taken {
    /// A complete line lying in the bytes read (those bytes, without its terminator): read
    /// where it lies, not copied.
    case lying(UnsafeRawBufferPointer)
    /// A complete line from the framer's own buffer, now the contents of the array passed.
    case copied
    /// A line that exceeded `maxFrameBytes`, with the byte count described above.
    case oversized(Int)
  }

  /// The longest frame accepted, in bytes (excluding the line terminator).
  public let maxFrameBytes: Int

  /// Bytes received: the frames found and not yet returned, then the incomplete last line
  /// (`buffer[lineStart...]`). Emptied of returned frames once every frame found is returned.
  private var buffer: [UInt8] = []
  private var lineStart = 0
  /// Whether we are discarding the rest of an oversized line.
  private var skipping = false
  /// Events found but not yet returned, frames as ranges of `buffer`;
  /// `ready[..<readyHead]` are consumed.
  private var ready: [Pending] = []
  private var readyHead = 0

  private enum Pending {
    case frame(Range<Int>)
    case oversized(Int)
  }

  /// Creates a framer accepting frames up to `maxFrameBytes` (at least 1).
  public init(maxFrameBytes: Int = 1 << 20) {
    precondition(maxFrameBytes > 0, "maxFrameBytes must be positive")
    self.maxFrameBytes = maxFrameBytes
  }

  /// Bytes of the incomplete last line held by the framer. Frames already
  /// found but not yet returned by `next()` are not counted, nor are bytes
  /// being discarded after an oversized line.
  public var bufferedByteCount: Int { buffer.count - lineStart }

  /// Appends bytes read from the socket.
  public mutating func append(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
      guard let hit = memchr(base + offset, Int32(lineFeed), bytes.count - offset) else {
        absorbIncomplete(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        return
      }
      let newline = base.distance(to: UnsafeRawPointer(hit))
      finishLine(UnsafeRawBufferPointer(rebasing: bytes[offset..<newline]))
      offset = newline + 1
    }
  }

  /// Appends bytes read from the socket.
  public mutating func append(contentsOf bytes: [UInt8]) {
    bytes.withUnsafeBytes { append($0) }
  }

  /// The next complete frame (without its "\n"; a trailing "\r" is stripped
  /// too), or nil if more bytes are needed.
  public mutating func next() -> Event? {
    var frame: [UInt8] = []
    switch next(into: &frame) {
    case nil: return nil
    case .frame: return .frame(frame)
    case .oversized(let count): return .oversized(count)
    }
  }

  /// ``next()``, a frame's bytes replacing the contents of `frame`, whose storage is reused
  /// when nothing else holds it: no allocation per frame once it is large enough.
  public mutating func next(into frame: inout [UInt8]) -> Found? {
    guard readyHead < ready.count else { return nil }
    let found: Found
    switch ready[readyHead] {
    case .frame(let range):
      if range.lowerBound == 0, readyHead + 1 == ready.count, lineStart == buffer.count {
        // The buffer holds this frame alone (one request per read, the usual case when a
        // client waits for each reply): it becomes the frame, no copy, and the frame's old
        // storage becomes the buffer.
        swap(&frame, &buffer)
        frame.removeLast(frame.count - range.count)  // a "\r" before the newline
        buffer.removeAll(keepingCapacity: true)
        lineStart = 0
      } else {
        frame.replaceSubrange(frame.indices, with: buffer[range])
      }
      found = .frame
    case .oversized(let count):
      found = .oversized(count)
    }
    readyHead += 1
    if readyHead == ready.count {
      // Every frame returned: only the incomplete line stays, moved to the front.
      ready.removeAll(keepingCapacity: true)
      readyHead = 0
      dropReturnedFrames()
    } else if readyHead >= 64 && readyHead * 2 >= ready.count {
      ready.removeFirst(readyHead)
      readyHead = 0
    }
    return found
  }

  /// ``next(into:)`` for the bytes just read, `bytes[offset...]`, not given to ``append(_:)``:
  /// while the framer holds nothing (no frame waiting, no incomplete line), a frame is given
  /// as it lies in `bytes` (``Taken/lying(_:)``), not copied (a server reads it there, while
  /// those bytes live); else it comes from the framer's buffer into `frame`
  /// (``Taken/copied``). Moves `offset` past what it used; an incomplete last line is kept in
  /// the framer's buffer. A caller that stops asking before nil gives the rest,
  /// `bytes[offset...]`, to ``append(_:)``.
  public mutating func next(
    from bytes: UnsafeRawBufferPointer, at offset: inout Int, into frame: inout [UInt8]
  ) -> Taken? {
    while offset < bytes.count, readyHead == ready.count, lineStart == buffer.count, !skipping {
      let base = bytes.baseAddress!
      guard let hit = memchr(base + offset, Int32(lineFeed), bytes.count - offset) else {
        break
      }
      // As `finishLine` does with nothing held.
      let line = UnsafeRawBufferPointer(rebasing: bytes[offset..<base.distance(to: hit)])
      offset += line.count + 1
      let length = line.count - (line.last == carriageReturn ? 1 : 0)
      if length > maxFrameBytes { return .oversized(length) }
      if length == 0 || line.allSatisfy(isWhitespace) { continue }
      return .lying(UnsafeRawBufferPointer(rebasing: line[0..<length]))
    }
    if offset < bytes.count {
      append(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
      offset = bytes.count
    }
    // The usual end of a read's frames: nothing waits (no call to say so).
    guard readyHead < ready.count else { return nil }
    switch next(into: &frame) {
    case nil: return nil
    case .frame: return .copied
    case .oversized(let count): return .oversized(count)
    }
  }

  /// Takes bytes that contain no newline.
  private mutating func absorbIncomplete(_ bytes: UnsafeRawBufferPointer) {
    if skipping { return }
    let total = bufferedByteCount + bytes.count
    // A line of maxFrameBytes may still be followed by "\r\n", hence the + 1.
    if total > maxFrameBytes + 1 {
      ready.append(.oversized(total))
      dropLine()
      skipping = true
    } else {
      buffer.append(contentsOf: bytes)
    }
  }

  /// Ends the current line with `tail`, the bytes before its newline.
  private mutating func finishLine(_ tail: UnsafeRawBufferPointer) {
    if skipping {
      skipping = false
      return
    }
    let held = bufferedByteCount
    let lastByte = tail.last ?? (held > 0 ? buffer.last : nil)
    let length = held + tail.count - (lastByte == carriageReturn ? 1 : 0)
    // Too long before blank: a long line is refused however it arrives, since a framer fed in
    // small reads refuses it before its end (and so its blankness) is known.
    if length > maxFrameBytes {
      ready.append(.oversized(length))
      dropLine()
    } else if length == 0 || isBlank(tail) {
      dropLine()
    } else {
      buffer.append(contentsOf: tail)
      ready.append(.frame(lineStart..<(lineStart + length)))
      lineStart = buffer.count
    }
  }

  /// Whether the line `buffer[lineStart...] + tail` holds only JSON whitespace. Usually
  /// decided by its first byte; a line of whitespace is scanned once.
  private func isBlank(_ tail: UnsafeRawBufferPointer) -> Bool {
    buffer[lineStart...].allSatisfy(isWhitespace) && tail.allSatisfy(isWhitespace)
  }

  /// Forgets the incomplete line.
  private mutating func dropLine() {
    buffer.removeLast(buffer.count - lineStart)
    if buffer.isEmpty { shrinkIfLarge() }
  }

  /// Drops the bytes of the frames returned (all of them): the incomplete line moves to the
  /// front.
  private mutating func dropReturnedFrames() {
    guard lineStart > 0 else { return }
    let held = buffer.count - lineStart
    if held > 0 {
      buffer.withUnsafeMutableBufferPointer { bytes in
        let base = bytes.baseAddress!
        base.update(from: base + lineStart, count: held)
      }
    }
    buffer.removeLast(lineStart)
    lineStart = 0
    if buffer.isEmpty { shrinkIfLarge() }
  }

  /// A buffer that held a huge line is not kept.
  private mutating func shrinkIfLarge() {
    if buffer.capacity > 1 << 16 { buffer = [] }
  }
}

// The framer's bytes, as constants of this module: WireJSON's (`UInt8.lineFeed`,
// `isJSONWhitespace`) are reached through a call each from here, several per frame.
private let lineFeed: UInt8 = 0x0A
private let carriageReturn: UInt8 = 0x0D

/// JSON whitespace: space, tab, line feed, carriage return.
private func isWhitespace(_ byte: UInt8) -> Bool {
  byte == 0x20 || byte == 0x09 || byte == lineFeed || byte == carriageReturn
}
