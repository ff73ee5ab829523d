import BlocCore
import Wire

/// The reply to an event that did not fail, `{"id":…,"ok":true,"outcome":"…","state":{…},"seq":N}`
/// and its `\n`, put together on the stack and appended to a buffer in one copy (three for a
/// state of more than `inlineStateBytes`: the head, the state's bytes, the tail). The same
/// bytes as `ReplyWriter` writes (tests compare them), without its dozen appends to the buffer
/// of a few bytes each, each of which costs the array's growth and uniqueness checks: this is
/// every `send`'s reply.
enum OutcomeLine {
  /// Appends the reply, or returns false (nothing appended) when it is not one this writes:
  /// a failed outcome (it carries an error) or a string id (escaped by `ReplyWriter`).
  static func append(
    id: RequestID?, _ outcome: EventOutcome, _ snapshot: StateSnapshot, to buffer: inout [UInt8]
  ) -> Bool {
    var number: Int64?
    switch id {
    case .number(let value)?: number = value
    case .string?: return false
    case nil: break
    }
    let head: StaticString
    switch outcome {
    case .handled: head = #""ok":true,"outcome":"handled","state":"#
    case .dropped: head = #""ok":true,"outcome":"dropped","state":"#
    case .cancelled: head = #""ok":true,"outcome":"cancelled","state":"#
    case .failed: return false
    }
    let inline = snapshot.json.count <= inlineStateBytes
    withUnsafeTemporaryAllocation(byteCount: 128 + inlineStateBytes, alignment: 1) { scratch in
      var line = Scratch(base: scratch.baseAddress!)
      line.put("{")
      if let number {
        line.put(#""id":"#)
        line.put(number)
        line.put(",")
      }
      line.put(head)
      if inline {
        line.put(snapshot.json)
      } else {
        line.flush(into: &buffer)
        buffer.append(contentsOf: snapshot.json)
      }
      line.put(#","seq":"#)
      line.put(Int64(clamping: snapshot.sequence))
      line.put("}\n")
      line.flush(into: &buffer)
    }
    return true
  }

  /// The largest state copied into the line on the stack (a counter's takes 11 to 30 bytes).
  static var inlineStateBytes: Int { 384 }

  /// Bytes put together in a scratch buffer of 128 bytes and room for an inline state (a head
  /// above takes at most 69, a tail 29).
  private struct Scratch {
    let base: UnsafeMutableRawPointer
    var count = 0

    mutating func put(_ bytes: [UInt8]) {
      bytes.withUnsafeBytes { bytes in
        guard let source = bytes.baseAddress else { return }
        (base + count).copyMemory(from: source, byteCount: bytes.count)
      }
      count += bytes.count
    }

    mutating func put(_ text: StaticString) {
      (base + count).copyMemory(from: text.utf8Start, byteCount: text.utf8CodeUnitCount)
      count += text.utf8CodeUnitCount
    }

    /// Decimal, as `JSONWriter.integer(_:)` writes it.
    mutating func put(_ value: Int64) {
      if value < 0 {
        base.storeBytes(of: UInt8(ascii: "-"), toByteOffset: count, as: UInt8.self)
        count += 1
      }
      var magnitude = value.magnitude
      var digits = 1
      var rest = magnitude / 10
      while rest > 0 {
        digits += 1
        rest /= 10
      }
      var index = count + digits
      count = index
      repeat {
        index -= 1
        base.storeBytes(
          of: UInt8(ascii: "0") + UInt8(magnitude % 10), toByteOffset: index, as: UInt8.self)
        magnitude /= 10
      } while magnitude > 0
    }

    /// Appends what was put to `buffer` and starts over.
    mutating func flush(into buffer: inout [UInt8]) {
      buffer.append(contentsOf: UnsafeRawBufferPointer(start: base, count: count))
      count = 0
    }
  }
}
