import Foundation

/// Encodes a stored state as compact JSON with sorted keys: the text `JSONEncoder`
/// (`.sortedKeys`) writes for JSON's own types, at a fraction of its cost (it runs for every
/// stored change), written from the value's ``EncodedValue`` tree. A value holding a type that
/// `JSONEncoder` treats by a strategy (`Date`, `Data`, `URL`, `Decimal`) is encoded by
/// `JSONEncoder` itself, so the stored text never depends on which encoder wrote it.
enum StoredJSON {
  /// `Stored(schemaVersion:state:)`'s text with the change's `seq` (and, when given, its
  /// `cause`, `event`, `target` and `time`), the wrapper written directly: only the state (and
  /// the event) go through an `encode(to:)` (the wrapper's own cost as much as a small
  /// state's, per change). Members in sorted order, as `JSONEncoder`'s `.sortedKeys`.
  /// `seen` gets the state's capture before it is written (not when `JSONEncoder` writes it).
  static func encodeStored<Value: Codable>(
    schemaVersion: Int, change: StoredChange, state: Value,
    seen: ((EncodedValue) -> Void)? = nil
  ) throws -> Data {
    var bytes: [UInt8] = [0x7B]
    bytes.reserveCapacity(160)
    if let cause = change.cause {
      bytes += #""cause":"#.utf8
      quote(cause.name, into: &bytes)
      if case .event(let event) = cause, let encodable = event as? any Encodable,
        let captured = try? EncodedValue.capture(encodable)
      {
        bytes += #","event":"#.utf8
        write(captured, into: &bytes)
      }
      bytes.append(0x2C)
    }
    bytes += #""schemaVersion":"#.utf8
    digits(Int64(schemaVersion), into: &bytes)
    bytes += #","seq":"#.utf8
    bytes += Array(String(change.sequence).utf8)
    bytes += #","state":"#.utf8
    do {
      let captured = try EncodedValue.capture(state)
      seen?(captured)
      write(captured, into: &bytes)
    } catch is EncodedValue.NeedsStrategy {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      bytes += try encoder.encode(state)
    }
    if case .goto(let target) = change.cause {
      bytes += #","target":"#.utf8
      bytes += Array(String(target).utf8)
    }
    if let time = change.time {
      bytes += #","time":"#.utf8
      digits(time, into: &bytes)
    }
    bytes.append(0x7D)
    return Data(bytes)
  }

  static func write(_ value: EncodedValue, into bytes: inout [UInt8]) {
    switch value.content {
    case .empty: bytes += [0x7B, 0x7D]
    case .null: bytes += Array("null".utf8)
    case .bool(let flag): bytes += Array((flag ? "true" : "false").utf8)
    case .integer(let number): digits(number, into: &bytes)
    case .unsigned(let number): bytes += Array(String(number).utf8)
    case .double(let number): shortest(number, into: &bytes)
    case .float(let number): shortest(number, into: &bytes)
    case .string(let text): quote(text, into: &bytes)
    case .array(let elements):
      bytes.append(0x5B)
      for (index, element) in elements.enumerated() {
        if index > 0 { bytes.append(0x2C) }
        write(element, into: &bytes)
      }
      bytes.append(0x5D)
    case .object(let members):
      bytes.append(0x7B)
      // Sorted by code points, as JSONEncoder's `.sortedKeys` does for plain keys; most types
      // encode their keys in that order already.
      let inOrder = zip(members, members.dropFirst()).allSatisfy { $0.key < $1.key }
      for (index, member) in (inOrder ? members : members.sorted { $0.key < $1.key }).enumerated() {
        if index > 0 { bytes.append(0x2C) }
        quote(member.key, into: &bytes)
        bytes.append(0x3A)
        write(member.value, into: &bytes)
      }
      bytes.append(0x7D)
    }
  }

  /// A finite floating-point number as `JSONEncoder` writes it: Swift's shortest text that reads
  /// back exactly, less a final ".0".
  static func shortest(_ value: some LosslessStringConvertible, into bytes: inout [UInt8]) {
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    bytes += Array(text.utf8)
  }

  /// The decimal digits of `value`, written in place (no intermediate string).
  static func digits(_ value: Int64, into bytes: inout [UInt8]) {
    if value < 0 { bytes.append(0x2D) }
    var magnitude = value.magnitude
    var reversed:
      (
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
      ) = (
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
      )
    var count = 0
    withUnsafeMutableBytes(of: &reversed) { buffer in
      repeat {
        buffer[count] = 0x30 + UInt8(magnitude % 10)
        magnitude /= 10
        count += 1
      } while magnitude > 0
      for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
    }
  }

  /// A JSON string as `JSONEncoder` writes it: `"`, `\` and `/` escaped, control characters as
  /// `\n`-style or `\u00XX` escapes, everything else as UTF-8.
  static func quote(_ text: String, into bytes: inout [UInt8]) {
    bytes.append(0x22)
    for byte in text.utf8 {
      switch byte {
      case 0x22: bytes += [0x5C, 0x22]
      case 0x5C: bytes += [0x5C, 0x5C]
      case 0x2F: bytes += [0x5C, 0x2F]
      case 0x0A: bytes += [0x5C, 0x6E]
      case 0x0D: bytes += [0x5C, 0x72]
      case 0x09: bytes += [0x5C, 0x74]
      case 0x08: bytes += [0x5C, 0x62]
      case 0x0C: bytes += [0x5C, 0x66]
      case ..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        bytes += [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      default: bytes.append(byte)
      }
    }
    bytes.append(0x22)
  }
}
