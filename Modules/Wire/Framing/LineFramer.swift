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
public struct LineFramer: Sendable {
  /// One result of framing.
  public enum Event: Equatable, Sendable {
    /// A complete line, without its terminator.
    case frame([UInt8])
    /// A line that exceeded `maxFrameBytes`, with the byte count described above.
    case oversized(Int)
  }

  /// The longest frame accepted, in bytes (excluding the line terminator).
  public let maxFrameBytes: Int

  /// The incomplete last line.
  private var partial: [UInt8] = []
  /// Whether we are discarding the rest of an oversized line.
  private var skipping = false
  /// Events found but not yet returned; `ready[..<readyHead]` are consumed.
  private var ready: [Event] = []
  private var readyHead = 0

  /// Creates a framer accepting frames up to `maxFrameBytes` (at least 1).
  public init(maxFrameBytes: Int = 1 << 20) {
    precondition(maxFrameBytes > 0, "maxFrameBytes must be positive")
    self.maxFrameBytes = maxFrameBytes
  }

  /// Bytes of the incomplete last line held by the framer. Frames already
  /// found but not yet returned by `next()` are not counted, nor are bytes
  /// being discarded after an oversized line.
  public var bufferedByteCount: Int { partial.count }

  /// Appends bytes read from the socket.
  public mutating func append(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
      guard let hit = memchr(base + offset, Int32(UInt8.lineFeed), bytes.count - offset) else {
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
    guard readyHead < ready.count else { return nil }
    let event = ready[readyHead]
    ready[readyHead] = .oversized(0)  // release the frame's storage
    readyHead += 1
    if readyHead == ready.count {
      ready.removeAll(keepingCapacity: true)
      readyHead = 0
    } else if readyHead >= 64 && readyHead * 2 >= ready.count {
      ready.removeFirst(readyHead)
      readyHead = 0
    }
    return event
  }

  /// Takes bytes that contain no newline.
  private mutating func absorbIncomplete(_ bytes: UnsafeRawBufferPointer) {
    if skipping { return }
    let total = partial.count + bytes.count
    // A line of maxFrameBytes may still be followed by "\r\n", hence the + 1.
    if total > maxFrameBytes + 1 {
      ready.append(.oversized(total))
      resetPartial()
      skipping = true
    } else {
      partial.append(contentsOf: bytes)
    }
  }

  /// Ends the current line with `tail`, the bytes before its newline.
  private mutating func finishLine(_ tail: UnsafeRawBufferPointer) {
    if skipping {
      skipping = false
      return
    }
    let lastByte = tail.isEmpty ? partial.last : tail.last
    let length = partial.count + tail.count - (lastByte == .carriageReturn ? 1 : 0)
    // Too long before blank: a long line is refused however it arrives, since a framer fed in
    // small reads refuses it before its end (and so its blankness) is known.
    if length > maxFrameBytes {
      ready.append(.oversized(length))
      resetPartial()
    } else if length == 0 || Self.isBlank(partial, tail) {
      resetPartial()
    } else if partial.isEmpty {
      ready.append(.frame(Array(UnsafeRawBufferPointer(rebasing: tail[..<length]))))
    } else {
      var frame = partial
      partial = []
      frame.reserveCapacity(length + 1)
      frame.append(contentsOf: tail)
      frame.removeLast(frame.count - length)
      ready.append(.frame(frame))
    }
  }

  /// Whether the line `partial + tail` holds only JSON whitespace. Usually decided by its
  /// first byte; a line of whitespace is scanned once.
  private static func isBlank(_ partial: [UInt8], _ tail: UnsafeRawBufferPointer) -> Bool {
    partial.allSatisfy(\.isJSONWhitespace) && tail.allSatisfy(\.isJSONWhitespace)
  }

  private mutating func resetPartial() {
    if partial.capacity > 1 << 16 {
      partial = []
    } else {
      partial.removeAll(keepingCapacity: true)
    }
  }
}
