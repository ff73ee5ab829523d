import Testing

@testable import BlocJournal

/// The journal's checksum is part of its file format: every journal written so far must read
/// back, so a faster CRC-32 must give exactly the old one's results.
@Suite struct CRC32Tests {
  static func checksum(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBytes { CRC32.checksum($0) }
  }

  /// The CRC-32 of zlib's `crc32`, one bit at a time.
  static func reference(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }
    return ~crc
  }

  @Test func knownVectors() {
    // Python's zlib.crc32 of the same bytes.
    #expect(Self.checksum([]) == 0)
    #expect(Self.checksum(Array("a".utf8)) == 0xE8B7_BE43)
    #expect(Self.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(
      Self.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
    #expect(Self.checksum([UInt8](repeating: 0, count: 17)) == 0xC9EF_F1BD)
    let ramp = (0..<1024).map { UInt8($0 & 0xFF) }
    #expect(Self.checksum(ramp) == 0xB70B_4C26)
    #expect(Self.checksum(Array(ramp[..<1000])) == 0x74E3_FB41)
  }

  /// Every length up to 300 (the word steps and the byte tail), at every alignment.
  @Test func matchesTheBitwiseCRCAtEveryLengthAndAlignment() {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    let bytes = (0..<320).map { _ -> UInt8 in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: state >> 56)
    }
    bytes.withUnsafeBytes { all in
      for offset in 0..<9 {
        for length in 0...300 {
          let range = offset..<(offset + length)
          let part = UnsafeRawBufferPointer(rebasing: all[range])
          let sum = CRC32.checksum(part)
          #expect(sum == Self.reference(bytes[range]), "length \(length) at \(offset)")
          // The tables alone, as on a CPU that does not fold (CRC32.folds).
          let sliced = CRC32.sliced(CRC32.start, part.baseAddress!, length) ^ 0xFFFF_FFFF
          #expect(sliced == sum, "length \(length) at \(offset), tables alone")
        }
      }
    }
  }

  /// A running value continued over the rest (the records of one key sum the bytes in front
  /// of their values once) gives the checksum of the whole, wherever it is split.
  @Test func aRunningValueGoesOnWhereverTheBytesAreSplit() {
    let bytes = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
    bytes.withUnsafeBytes { all in
      for split in 0...all.count {
        let front = CRC32.update(CRC32.start, with: UnsafeRawBufferPointer(rebasing: all[..<split]))
        let sum = CRC32.update(front, with: UnsafeRawBufferPointer(rebasing: all[split...]))
        #expect(sum ^ 0xFFFF_FFFF == Self.reference(bytes), "split at \(split)")
      }
    }
  }
}
