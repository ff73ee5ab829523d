import Testing
import Wire

extension LineFramer {
  /// Appends `text` and returns every event now available.
  mutating func feed(_ text: String) -> [Event] {
    append(contentsOf: Array(text.utf8))
    return drain()
  }

  mutating func drain() -> [Event] {
    var events: [Event] = []
    while let event = next() { events.append(event) }
    return events
  }
}

func frame(_ text: String) -> LineFramer.Event { .frame(Array(text.utf8)) }

@Suite struct LineFramerTests {
  @Test func framesSplitAcrossChunks() {
    var framer = LineFramer()
    #expect(framer.feed(#"{"op":"#) == [])
    #expect(framer.bufferedByteCount == 6)
    #expect(framer.feed(#""ping""#) == [])
    #expect(framer.feed("}\n") == [frame(#"{"op":"ping"}"#)])
    #expect(framer.bufferedByteCount == 0)
    #expect(framer.next() == nil)
  }

  @Test func byteByByte() {
    var framer = LineFramer()
    var events: [LineFramer.Event] = []
    for byte in "ab\ncd\r\n\nef\n".utf8 {
      framer.append(contentsOf: [byte])
      events += framer.drain()
    }
    #expect(events == [frame("ab"), frame("cd"), frame("ef")])
  }

  @Test func severalFramesInOneChunk() {
    var framer = LineFramer()
    #expect(framer.feed("one\ntwo\nthree\nfour") == [frame("one"), frame("two"), frame("three")])
    #expect(framer.bufferedByteCount == 4)
    #expect(framer.feed("\n") == [frame("four")])
  }

  @Test func eventsWaitUntilAsked() {
    var framer = LineFramer()
    framer.append(contentsOf: Array("a\nb\n".utf8))
    framer.append(contentsOf: Array("c\n".utf8))
    #expect(framer.next() == frame("a"))
    framer.append(contentsOf: Array("d\n".utf8))
    #expect(framer.drain() == [frame("b"), frame("c"), frame("d")])
  }

  @Test func whitespaceOnlyLinesAreBlank() {
    var framer = LineFramer()
    #expect(framer.feed("   \n\t\n \t \r\n\r\r\n x \n") == [frame(" x ")])
    // A blank line split across chunks, and one of whitespace after a partial line.
    #expect(framer.feed("  ") == [])
    #expect(framer.feed(" \n{}\n") == [frame("{}")])
  }

  @Test func longBlankLineIsOversizedHoweverItArrives() {
    // Found by `Scripts/fuzz framer`: fed byte by byte the line was refused (the framer holds
    // at most maxFrameBytes + 1 bytes), fed at once it was skipped as blank.
    let stream = "      \nok\n"
    var whole = LineFramer(maxFrameBytes: 4)
    #expect(whole.feed(stream) == [.oversized(6), frame("ok")])
    var byByte = LineFramer(maxFrameBytes: 4)
    var events: [LineFramer.Event] = []
    for character in stream { events += byByte.feed(String(character)) }
    #expect(events == [.oversized(6), frame("ok")])
  }

  @Test func crlfAndBlankLines() {
    var framer = LineFramer()
    #expect(framer.feed("\n\r\n\n  x\r\ny\r") == [frame("  x")])
    #expect(framer.feed("\n") == [frame("y")])  // "\r" then "\n" in separate chunks
    #expect(framer.feed("a\rb\n") == [frame("a\rb")])  // only a trailing "\r" goes
    #expect(framer.feed("c\r\r\n") == [frame("c\r")])
  }

  @Test func frameOfExactlyTheLimit() {
    var framer = LineFramer(maxFrameBytes: 4)
    #expect(framer.feed("abcd\n") == [frame("abcd")])
    #expect(framer.feed("abcd\r\n") == [frame("abcd")])
    #expect(framer.feed("abcd") == [])
    #expect(framer.feed("\r") == [])  // 5 bytes held: could still end in "\r\n"
    #expect(framer.feed("\n") == [frame("abcd")])
    #expect(framer.feed("abcde\n") == [.oversized(5)])
  }

  @Test func oversizedFrameThenRecovery() {
    var framer = LineFramer(maxFrameBytes: 8)
    // Whole line seen at once: its length is known.
    #expect(framer.feed("ok\n0123456789\nnext\n") == [frame("ok"), .oversized(10), frame("next")])
    // Line cut across chunks: reported once as soon as it passes the limit.
    #expect(framer.feed("0123") == [])
    #expect(framer.feed("456789") == [.oversized(10)])
    #expect(framer.bufferedByteCount == 0)
    #expect(framer.feed("more bytes of the same line") == [])
    #expect(framer.bufferedByteCount == 0)
    #expect(framer.feed("...end\nafter\n") == [frame("after")])
  }

  @Test func oversizedTailAfterGoodFramesKeepsOrder() {
    var framer = LineFramer(maxFrameBytes: 4)
    framer.append(contentsOf: Array("a\nb\n0123456789".utf8))
    framer.append(contentsOf: Array("x\nc\n".utf8))
    #expect(framer.drain() == [frame("a"), frame("b"), .oversized(10), frame("c")])
  }

  @Test func memoryStaysBoundedWithoutNewlines() {
    let limit = 1 << 16
    var framer = LineFramer(maxFrameBytes: limit)
    let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 4096)
    var events: [LineFramer.Event] = []
    var peak = 0
    for _ in 0..<(10 << 20) / chunk.count {  // 10 MB, never a newline
      framer.append(contentsOf: chunk)
      peak = max(peak, framer.bufferedByteCount)
      events += framer.drain()
    }
    #expect(peak <= limit + 1)
    #expect(framer.bufferedByteCount == 0)
    #expect(events.count == 1)
    guard case .oversized(let count) = events.first else {
      Issue.record("expected one oversized event, got \(events)")
      return
    }
    #expect(count > limit)
    #expect(framer.feed("\n{\"op\":\"ping\"}\n") == [frame(#"{"op":"ping"}"#)])
  }

  @Test func memoryStaysBoundedEvenWithoutDraining() {
    var framer = LineFramer(maxFrameBytes: 1000)
    let chunk = [UInt8](repeating: 0x41, count: 3000)
    for _ in 0..<1000 { framer.append(contentsOf: chunk) }
    #expect(framer.bufferedByteCount == 0)
    #expect(framer.drain() == [.oversized(3000)])
  }

  @Test func manyFramesInterleavedWithNextStayOrdered() {
    var framer = LineFramer()
    var seen: [LineFramer.Event] = []
    for index in 0..<1000 {
      framer.append(contentsOf: Array("\(index)\n\(index)b\n".utf8))
      if let event = framer.next() { seen.append(event) }  // take one, leave one
    }
    seen += framer.drain()
    let expected = (0..<1000).flatMap { [frame("\($0)"), frame("\($0)b")] }
    #expect(seen == expected)
  }

  @Test func rawBufferAppend() {
    var framer = LineFramer()
    let bytes = Array("x\ny".utf8)
    bytes.withUnsafeBytes { framer.append($0) }
    framer.append(UnsafeRawBufferPointer(start: nil, count: 0))
    #expect(framer.drain() == [frame("x")])
    #expect(framer.bufferedByteCount == 1)
    #expect(framer.maxFrameBytes == 1 << 20)
  }

  /// A frame alone in the framer trades storage with the caller's array (no copy); frames
  /// read as the loop reads them, into one array, come out whole either way.
  @Test func framesIntoOneArrayWhetherAloneOrNot() {
    var framer = LineFramer(maxFrameBytes: 16)
    var frame = Array("stale contents".utf8)
    var seen: [String] = []
    func take() {
      while let found = framer.next(into: &frame) {
        switch found {
        case .frame: seen.append(String(decoding: frame, as: UTF8.self))
        case .oversized(let count): seen.append("oversized \(count)")
        }
      }
    }
    for chunk in [
      "alone\r\n", "a\nb\r\nc", "\n", "par", "tial\n", "x\n", "much too long for it\n", "y\r\n",
    ] {
      framer.append(contentsOf: Array(chunk.utf8))
      take()
    }
    #expect(seen == ["alone", "a", "b", "c", "partial", "x", "oversized 20", "y"])
    #expect(framer.bufferedByteCount == 0)
  }

  /// Frames taken straight from each read (``LineFramer/next(from:at:into:)``) are the frames
  /// the framer's own buffer gives, in order, also when the reader stops after a few and
  /// gives the rest back (reading paused), and the same bytes stay buffered.
  @Test func framesStraightFromAReadMatchBufferedOnes() {
    let reads = [
      "alone\r\n", "a\nb\r\nc", "\n", "par", "tial\n", "x\n \t\r\n\n",
      "much too long for it\ny\r\n", "z\r", "\n", "1\n2\n3\n4\n5", "\n", "\r\n",
      "far too long, no end", " yet\nafter\n", "q\n\n\nr\n",
    ]
    func events(_ found: LineFramer.Found?, _ frame: [UInt8]) -> String? {
      switch found {
      case nil: return nil
      case .frame: return String(decoding: frame, as: UTF8.self)
      case .oversized(let count): return "oversized \(count)"
      }
    }
    // Frames given as they lie in the read (not copied), and from the framer's buffer.
    var lying = 0
    var copied = 0
    func events(_ taken: LineFramer.Taken?, _ frame: [UInt8]) -> String? {
      switch taken {
      case nil: return nil
      case .lying(let bytes):
        lying += 1
        return String(decoding: bytes, as: UTF8.self)
      case .copied:
        copied += 1
        return String(decoding: frame, as: UTF8.self)
      case .oversized(let count): return "oversized \(count)"
      }
    }
    var expected: [String] = []
    var framer = LineFramer(maxFrameBytes: 16)
    var frame: [UInt8] = []
    for read in reads {
      framer.append(contentsOf: Array(read.utf8))
      while let event = events(framer.next(into: &frame), frame) { expected.append(event) }
    }
    #expect(expected.count == 18)
    for stopAfter in [1, 2, 3, Int.max] {
      var framer = LineFramer(maxFrameBytes: 16)
      var seen: [String] = []
      for read in reads {
        Array(read.utf8).withUnsafeBytes { bytes in
          var used = 0
          var taken = 0
          while taken < stopAfter,
            let event = events(framer.next(from: bytes, at: &used, into: &frame), frame)
          {
            seen.append(event)
            taken += 1
          }
          if used < bytes.count { framer.append(UnsafeRawBufferPointer(rebasing: bytes[used...])) }
        }
        if stopAfter != Int.max {
          // Reading resumed: what waited in the framer comes out before the next read.
          while let event = events(framer.next(into: &frame), frame) { seen.append(event) }
        }
      }
      #expect(seen == expected, "stopping after \(stopAfter) frames per read")
      #expect(framer.bufferedByteCount == 0)
    }
    #expect(lying > 0 && copied > 0)
  }
}
