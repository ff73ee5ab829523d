internal import JournalChecksum

/// CRC-32 (the zlib / IEEE polynomial, reflected, as in zip and PNG) of a journal record's
/// payload: folded sixteen bytes at a time with carry-less multiplication where the CPU has it
/// (x86-64's PCLMULQDQ, in C: JournalChecksum), else and for the last 0–15 bytes sixteen bytes
/// at a time through tables ("slicing-by-16").
///
/// Every record is summed once when written and once when read back: once per change on the
/// writer's path. Folding a ~120-byte value takes about 85 instructions where the tables take
/// about 450. The tables' step reads sixteen bytes as two words (not byte by byte) and looks
/// each byte up in the table for its distance from the step's end, so the sixteen lookups do
/// not wait for each other. Same polynomial, same results as zlib's `crc32`.
enum CRC32 {
  /// Table `k` (256 entries from `k * 256`) gives the CRC of a byte followed by `k` zero
  /// bytes; built once.
  private static let tables: [UInt32] = {
    var tables = [UInt32](repeating: 0, count: 16 * 256)
    for n in 0..<256 {
      var c = UInt32(n)
      for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
      tables[n] = c
    }
    for k in 1..<16 {
      for n in 0..<256 {
        let previous = tables[(k - 1) * 256 + n]
        tables[k * 256 + n] = tables[Int(previous & 0xFF)] ^ (previous >> 8)
      }
    }
    return tables
  }()

  static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    update(start, with: bytes) ^ 0xFFFF_FFFF
  }

  /// The running value before any byte: ``update(_:with:)`` continues from it, and the
  /// checksum is the running value after the last byte with every bit flipped.
  static let start: UInt32 = 0xFFFF_FFFF

  /// The running value after `bytes` follow those `crc` was computed over: the records of one
  /// key share the bytes in front of their value, summed once for all of them.
  static func update(_ crc: UInt32, with bytes: UnsafeRawBufferPointer) -> UInt32 {
    guard let base = bytes.baseAddress else { return crc }
    guard bytes.count >= 64, folds else { return sliced(crc, base, bytes.count) }
    let folded = bytes.count & ~15
    let crc = journal_crc32_fold(base.assumingMemoryBound(to: UInt8.self), folded, crc)
    return sliced(crc, base + folded, bytes.count - folded)
  }

  /// Whether this CPU folds 16 bytes at a time with carry-less multiplication (x86-64 with
  /// PCLMULQDQ: JournalChecksum), about 8 times fewer instructions than the tables for a
  /// record; the last 0-15 bytes, and whatever is shorter than 64, go through the tables.
  private static let folds = journal_crc32_folds() != 0

  /// ``update(_:with:)`` with the tables.
  static func sliced(_ crc: UInt32, _ base: UnsafeRawPointer, _ count: Int) -> UInt32 {
    tables.withUnsafeBufferPointer { t in
      // The eight bytes of `word` (little-endian), followed by `k` more bytes.
      @inline(__always) func fold(_ word: UInt64, before k: Int) -> UInt32 {
        let low =
          t[(k + 7) * 256 + Int(word & 0xFF)] ^ t[(k + 6) * 256 + Int((word >> 8) & 0xFF)]
          ^ t[(k + 5) * 256 + Int((word >> 16) & 0xFF)]
          ^ t[(k + 4) * 256 + Int((word >> 24) & 0xFF)]
        let high =
          t[(k + 3) * 256 + Int((word >> 32) & 0xFF)]
          ^ t[(k + 2) * 256 + Int((word >> 40) & 0xFF)]
          ^ t[(k + 1) * 256 + Int((word >> 48) & 0xFF)] ^ t[k * 256 + Int(word >> 56)]
        return low ^ high
      }
      var next = base
      var left = count
      var crc = crc
      while left >= 16 {
        let first = next.loadUnaligned(as: UInt64.self).littleEndian ^ UInt64(crc)
        let second = (next + 8).loadUnaligned(as: UInt64.self).littleEndian
        crc = fold(first, before: 8) ^ fold(second, before: 0)
        next += 16
        left -= 16
      }
      if left >= 8 {
        crc = fold(next.loadUnaligned(as: UInt64.self).littleEndian ^ UInt64(crc), before: 0)
        next += 8
        left -= 8
      }
      if left >= 4 {
        // Four bytes at once, as the eight above: the word's bytes, followed by none.
        let word = next.loadUnaligned(as: UInt32.self).littleEndian ^ crc
        crc =
          t[3 * 256 + Int(word & 0xFF)] ^ t[2 * 256 + Int((word >> 8) & 0xFF)]
          ^ t[256 + Int((word >> 16) & 0xFF)] ^ t[Int(word >> 24)]
        next += 4
        left -= 4
      }
      for index in 0..<left {
        crc =
          t[Int((crc ^ UInt32(next.load(fromByteOffset: index, as: UInt8.self))) & 0xFF)]
          ^ (crc >> 8)
      }
      return crc
    }
  }
}
