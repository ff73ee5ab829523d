import FuzzSupport
import Wire

/// Fuzzes Wire's `LineFramer` under random chunking: however a byte stream is split into
/// `read`s, and whenever frames are drained, the framer must yield the same frames as a
/// simple reference (split at `\n`, drop one `\r` before it, refuse lines longer than the
/// limit, skip blank ones), and hold at most `maxFrameBytes + 1` bytes.
///
/// Input layout: byte 0 picks the frame limit (1…64, small so that oversized lines are
/// common), bytes 1…8 seed the chunk sizes and drain points, the rest is the stream.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFramer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  checkFramer(Array(UnsafeRawBufferPointer(start: data, count: size)))
  return 0
}

/// A framing result compared across chunkings. An oversized line's count depends on how much
/// of it had arrived, so only its place in the sequence is compared (and that it is over the
/// limit).
enum Framed: Equatable {
  case frame([UInt8])
  case oversized
}

func checkFramer(_ input: [UInt8]) {
  guard input.count >= 9 else { return }
  let limit = Int(input[0] % 64) + 1
  var random = SplitMix64(seed: input[1..<9].reduce(0) { $0 << 8 | UInt64($1) })
  let stream = Array(input[9...])
  let expected = referenceFraming(stream, limit: limit)

  // The whole stream in one read.
  var whole = LineFramer(maxFrameBytes: limit)
  whole.append(contentsOf: stream)
  var wholeEvents: [Framed] = []
  drain(&whole, into: &wholeEvents, limit: limit)
  fuzzCheck(wholeEvents == expected.events, "one read: \(wholeEvents) != \(expected.events)")
  fuzzCheck(
    whole.bufferedByteCount == expected.buffered,
    "one read: \(whole.bufferedByteCount) bytes buffered, expected \(expected.buffered)")

  // Random reads (0 to 2 × limit bytes, sometimes empty), draining at random moments.
  var chunked = LineFramer(maxFrameBytes: limit)
  var chunkedEvents: [Framed] = []
  var offset = 0
  while offset < stream.count {
    let length = min(Int(random.next() % UInt64(2 * limit + 2)), stream.count - offset)
    chunked.append(contentsOf: Array(stream[offset..<offset + length]))
    offset += length
    fuzzCheck(
      chunked.bufferedByteCount <= limit + 1,
      "holds \(chunked.bufferedByteCount) bytes, limit \(limit)")
    if random.next() % 3 == 0 { drain(&chunked, into: &chunkedEvents, limit: limit) }
  }
  drain(&chunked, into: &chunkedEvents, limit: limit)
  fuzzCheck(chunkedEvents == expected.events, "chunked: \(chunkedEvents) != \(expected.events)")
  fuzzCheck(
    chunked.bufferedByteCount == expected.buffered,
    "chunked: \(chunked.bufferedByteCount) bytes buffered, expected \(expected.buffered)")
}

func drain(_ framer: inout LineFramer, into events: inout [Framed], limit: Int) {
  while let event = framer.next() {
    switch event {
    case .frame(let line):
      fuzzCheck(
        !line.isEmpty && line.count <= limit, "frame of \(line.count) bytes, limit \(limit)")
      events.append(.frame(line))
    case .oversized(let count):
      fuzzCheck(count > limit, "oversized line of \(count) bytes, limit \(limit)")
      events.append(.oversized)
    }
  }
}

/// What PROTOCOL.md's framing says, written as plainly as possible.
func referenceFraming(_ stream: [UInt8], limit: Int) -> (events: [Framed], buffered: Int) {
  var events: [Framed] = []
  var lines = stream.split(separator: 0x0A, omittingEmptySubsequences: false)
  let trailing = lines.removeLast()  // the bytes after the last newline
  for var line in lines {
    if line.last == 0x0D { line = line.dropLast() }
    // Too long is refused whatever the line holds: the framer keeps at most limit + 1 bytes,
    // so it cannot wait to learn whether a long line is blank.
    if line.count > limit {
      events.append(.oversized)
    } else if !line.allSatisfy(isJSONWhitespace) {
      events.append(.frame(Array(line)))
    }  // else blank: empty, or only spaces, tabs and carriage returns
  }
  // An unfinished line is held until it passes the limit (plus room for a "\r").
  if trailing.count > limit + 1 {
    events.append(.oversized)
    return (events, 0)
  }
  return (events, trailing.count)
}

func isJSONWhitespace(_ byte: UInt8) -> Bool {
  byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
}

/// A small deterministic generator (SplitMix64), so a crash replays exactly.
struct SplitMix64 {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

@main
enum FuzzFramerReplay {
  static func main() { FuzzReplay.main(name: "fuzz-framer") { checkFramer(Array($0)) } }
}
