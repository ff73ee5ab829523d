import Foundation

/// The byte layout of ``JournalStorage``'s files.
///
/// A file starts with an 8-byte magic (`BLOCJNL` or `BLOCSNP`, then the format version 1),
/// followed by records, all integers little-endian:
///
/// ```text
/// u32 payload length | u32 CRC-32 of the payload | payload
/// payload: u8 kind (1 put, 2 remove, 3 end of snapshot) | u8 key length | key | value
/// ```
///
/// A record is valid only when it is complete and its checksum matches: a torn write (a crash
/// in the middle of an append) or a flipped bit ends the valid part of the file. What ended it
/// is told as found (``Damage``): a length that runs past the end, a checksum mismatch, ….
///
/// A journal may end in zeros written ahead of its records (``JournalStorage`` writes its
/// records over them under `.always`): where a record would start, zeros up to the end of the
/// file end the journal as the end of the file does (``isZeroTail(_:from:)``). A zero length
/// followed by anything else is damage.
enum JournalFormat {
  static let journalMagic: [UInt8] = Array("BLOCJNL".utf8) + [1]
  static let snapshotMagic: [UInt8] = Array("BLOCSNP".utf8) + [1]
  static let headerSize = 8
  static let recordHeaderSize = 8
  /// Larger lengths are taken for garbage, not for a record.
  static let maxPayload = 1 << 30

  enum Kind: UInt8 {
    case put = 1
    case remove = 2
    case end = 3
  }

  /// Appends one record to `buffer`.
  static func append(
    _ kind: Kind, key: String, value: ArraySlice<UInt8>?, to buffer: inout [UInt8]
  ) {
    let start = buffer.count
    appendHeader(kind, key: key, to: &buffer)
    let valueStart = buffer.count
    if let value { buffer.append(contentsOf: value) }
    seal(value: valueStart..<buffer.count, headerSize: valueStart - start, in: &buffer)
  }

  /// Makes `header` the start of a record of `kind` under `key`, up to its value: length and
  /// checksum left to ``seal(value:headerSize:in:)``, once the value follows it.
  static func header(_ kind: Kind, key: String, into header: inout [UInt8]) {
    header.removeAll(keepingCapacity: true)
    appendHeader(kind, key: key, to: &header)
  }

  private static func appendHeader(_ kind: Kind, key: String, to buffer: inout [UInt8]) {
    var key = key
    key.withUTF8 { keyBytes in
      appendUInt32(0, to: &buffer)  // the payload's length, filled in by `seal`
      appendUInt32(0, to: &buffer)  // the checksum, likewise
      buffer.append(kind.rawValue)
      buffer.append(UInt8(keyBytes.count))
      buffer.append(contentsOf: keyBytes)
    }
  }

  /// Completes the record whose value lies at `value` in `buffer`, right after its header of
  /// `headerSize` bytes (``header(_:key:into:)``): the payload's length and checksum.
  static func seal(value: Range<Int>, headerSize: Int, in buffer: inout [UInt8]) {
    buffer.withUnsafeMutableBytes { seal(value: value, headerSize: headerSize, in: $0) }
  }

  static func seal(value: Range<Int>, headerSize: Int, in all: UnsafeMutableRawBufferPointer) {
    let start = value.lowerBound - headerSize
    let header = UnsafeRawBufferPointer(
      rebasing: all[(start + recordHeaderSize)..<value.lowerBound])
    seal(
      value: value, headerSize: headerSize, headerSum: CRC32.update(CRC32.start, with: header),
      in: all)
  }

  /// The running checksum of the payload's part in `header` (``header(_:key:into:)``: kind
  /// and key), the same for every record made from it: ``seal(value:headerSize:headerSum:in:)``
  /// goes on from it over each value.
  static func headerSum(_ header: [UInt8]) -> UInt32 {
    header.withUnsafeBytes {
      CRC32.update(CRC32.start, with: UnsafeRawBufferPointer(rebasing: $0[recordHeaderSize...]))
    }
  }

  static func seal(
    value: Range<Int>, headerSize: Int, headerSum: UInt32, in all: UnsafeMutableRawBufferPointer
  ) {
    let start = value.lowerBound - headerSize
    let length = headerSize - recordHeaderSize + value.count
    let checksum =
      CRC32.update(headerSum, with: UnsafeRawBufferPointer(rebasing: all[value])) ^ 0xFFFF_FFFF
    all.storeBytes(of: UInt32(length).littleEndian, toByteOffset: start, as: UInt32.self)
    all.storeBytes(of: checksum.littleEndian, toByteOffset: start + 4, as: UInt32.self)
  }

  static func appendUInt32(_ value: UInt32, to buffer: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { buffer.append(contentsOf: $0) }
  }

  static func readUInt32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
    UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
      | UInt32(bytes[offset + 3]) << 24
  }

  /// One record read back: where its key and value lie in the file's bytes.
  struct Record {
    let kind: Kind
    let key: Range<Int>
    let value: Range<Int>
    /// The offset just past the record.
    let end: Int
  }

  /// Why the valid part of a file ends before its last byte: what was found, as found.
  enum Damage: Error, Equatable, CustomStringConvertible {
    /// Fewer bytes than a record header are left.
    case tornHeader(available: Int)
    /// The length field asks for more bytes than are left: a torn append, or a damaged length.
    case pastTheEnd(needed: Int, available: Int)
    /// The length field asks for more bytes than are left, and the checksum matches the bytes
    /// that are there: the record is whole, its length field is damaged.
    case damagedLength(said: Int, matches: Int)
    case badLength(Int)
    case checksumMismatch
    case badKind(UInt8)

    var description: String {
      switch self {
      case .tornHeader(let available):
        return "an incomplete record header (\(recordHeaderSize) bytes expected, \(available) "
          + "present): a torn write"
      case .pastTheEnd(let needed, let available):
        return "an incomplete record (\(needed) bytes expected, \(available) present): its "
          + "length runs past the end of the file; a torn write, or a damaged length field"
      case .damagedLength(let said, let matches):
        return "a record whose length field is damaged (it says \(said) bytes, but the "
          + "checksum matches the \(matches) bytes present)"
      case .badLength(let length): return "an impossible record length \(length)"
      case .checksumMismatch: return "a record whose checksum does not match its bytes"
      case .badKind(let kind): return "a record of unknown kind \(kind)"
      }
    }
  }

  /// Reads the record at `offset`; nil at the end of the bytes.
  static func record(in bytes: UnsafeRawBufferPointer, at offset: Int) -> Result<Record, Damage>? {
    let available = bytes.count - offset
    if available == 0 { return nil }
    if available < recordHeaderSize { return .failure(.tornHeader(available: available)) }
    let length = Int(readUInt32(bytes, at: offset))
    guard length >= 2, length <= maxPayload else { return .failure(.badLength(length)) }
    guard available >= recordHeaderSize + length else {
      return .failure(pastTheEnd(bytes, at: offset, length: length))
    }
    let payload = offset + recordHeaderSize
    let stored = readUInt32(bytes, at: offset + 4)
    let actual = CRC32.checksum(
      UnsafeRawBufferPointer(rebasing: bytes[payload..<(payload + length)]))
    guard stored == actual else { return .failure(.checksumMismatch) }
    guard let kind = Kind(rawValue: bytes[payload]) else {
      return .failure(.badKind(bytes[payload]))
    }
    let keyLength = Int(bytes[payload + 1])
    guard 2 + keyLength <= length else { return .failure(.badLength(length)) }
    let keyStart = payload + 2
    let end = payload + length
    return .success(
      Record(
        kind: kind, key: keyStart..<(keyStart + keyLength), value: (keyStart + keyLength)..<end,
        end: end))
  }
}

extension JournalFormat {
  /// A record at `offset` whose `length` runs past the end: a damaged length field when the
  /// checksum matches the bytes that are there (one checksum, over at most what is left), else
  /// a torn append or a damaged length, which cannot be told apart.
  static func pastTheEnd(_ bytes: UnsafeRawBufferPointer, at offset: Int, length: Int) -> Damage {
    let payload = offset + recordHeaderSize
    let present = bytes.count - payload
    if present >= 2,
      readUInt32(bytes, at: offset + 4)
        == CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[payload...]))
    {
      return .damagedLength(said: length, matches: present)
    }
    return .pastTheEnd(needed: recordHeaderSize + length, available: bytes.count - offset)
  }
}

extension JournalFormat {
  /// Whether `bytes` holds only zeros from `offset` on: the zeros written ahead of a
  /// journal's records, read as its end.
  static func isZeroTail(_ bytes: UnsafeRawBufferPointer, from offset: Int) -> Bool {
    var index = offset
    while index + 8 <= bytes.count {
      if bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) != 0 { return false }
      index += 8
    }
    while index < bytes.count {
      if bytes[index] != 0 { return false }
      index += 1
    }
    return true
  }
}
