import SystemCalls

/// A reply's line put together in scratch memory on the stack, backwards from its end as
/// numbers' digits come, then appended to the reply's buffer in one copy: every reply's head
/// (``ReplyWriter/init(id:ok:capacity:reusing:)``) and every `send`'s whole reply
/// (`appendOutcome`) take one append each, where writing member by member takes one per piece
/// (each checking the array's uniqueness and room, about 90 instructions). Each `put` writes
/// just before `start` and returns where the bytes now start.
extension ReplyWriter {
  /// The largest state an event's reply copies into its line on the stack (a counter's takes
  /// 11 to 30 bytes); a larger one is appended on its own.
  package static var inlineStateBytes: Int { 384 }

  /// Appends the reply to an event,
  /// `{"id":…,"ok":…,"error":{…},"outcome":"…","state":{…},"seq":N}` and its `\n`, to `buffer`:
  /// `"ok":false` and the error when there is one. Every `send`'s reply: written around the
  /// state's bytes and appended in one copy (more for a string id, an error, or a state of more
  /// than `inlineStateBytes`).
  package static func appendOutcome(
    id: RequestID?, _ outcome: StaticString, error: WireError?, state: [UInt8],
    sequence: UInt64, to buffer: inout [UInt8]
  ) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128 + inlineStateBytes) { scratch in
      let end = scratch.baseAddress! + scratch.count
      var start = put("}\n", before: end)
      start = decimalDigits(Int64(clamping: sequence), before: start)
      start = put(#","seq":"#, before: start)
      let afterState = start
      let inline = state.count <= inlineStateBytes
      if inline { start = put(state, before: start) }
      start = put(#"","state":"#, before: start)
      start = put(outcome, before: start)
      start = put(#","outcome":""#, before: start)
      let afterHead = start
      start = putHead(id: id, ok: error == nil, before: start, buffer: &buffer)
      if let error {
        append(from: start, upTo: afterHead, to: &buffer)
        JSONWriter.appending(to: &buffer) { write(error, to: &$0) }
        start = afterHead
      }
      if !inline {
        append(from: start, upTo: afterState, to: &buffer)
        buffer.append(contentsOf: state)
        start = afterState
      }
      append(from: start, upTo: end, to: &buffer)
    }
  }

  /// `{"id":N,"ok":…`, what every reply starts with (its id left out when it has none). A
  /// string id is escaped, and so appended to `buffer` at once, before the line: then this
  /// puts `,"ok":…` alone.
  static func putHead(
    id: RequestID?, ok: Bool, before end: UnsafeMutablePointer<UInt8>, buffer: inout [UInt8]
  ) -> UnsafeMutablePointer<UInt8> {
    let start = put(ok ? #""ok":true"# : #""ok":false"#, before: end)
    switch id {
    case .number(let value)?:
      return put(#"{"id":"#, before: decimalDigits(value, before: put(",", before: start)))
    case .string(let text)?:
      JSONWriter.appending(to: &buffer) { writer in
        writer.ascii(#"{"id":"#)
        writer.string(text)
      }
      return put(",", before: start)
    case nil:
      return put("{", before: start)
    }
  }

  private static func put(
    _ text: StaticString, before end: UnsafeMutablePointer<UInt8>
  ) -> UnsafeMutablePointer<UInt8> {
    let start = end - text.utf8CodeUnitCount
    start.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
    return start
  }

  private static func put(
    _ bytes: [UInt8], before end: UnsafeMutablePointer<UInt8>
  ) -> UnsafeMutablePointer<UInt8> {
    let start = end - bytes.count
    bytes.withUnsafeBufferPointer { bytes in
      guard let source = bytes.baseAddress else { return }
      start.update(from: source, count: bytes.count)
    }
    return start
  }

  /// Appends the line's bytes from `start` up to `end` to `buffer`, copied in one piece into
  /// its spare capacity (`append(upTo:)`): `append(contentsOf:)` took about twice the
  /// instructions (some 100 for a reply's line).
  static func append(
    from start: UnsafeMutablePointer<UInt8>, upTo end: UnsafeMutablePointer<UInt8>,
    to buffer: inout [UInt8]
  ) {
    let count = end - start
    buffer.append(upTo: count) { target in
      target.update(from: start, count: count)
      return count
    }
  }
}
